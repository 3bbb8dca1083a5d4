import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { BOUNDS, COST_HUNDREDTHS, SOURCE_TYPES } from '../../../shared/constants';
import { platformOptions } from '../../../shared/domain/platforms';
import { projectLocator, readProjectId } from '../../../shared/domain/projects';
import {
	assertHttpUrl,
	validateAngle,
	validatePlatforms,
	validateSourceType,
	validateTitle,
} from '../../../shared/validation';
import { insufficientCredits, minimumBalanceOption, normaliseCredits } from '../../helpers/budget';
import { readSwitch } from '../../helpers/parameters';
import {
	additionalFields,
	optionsCollection,
	waitForCompletionProperty,
	waitOptions,
} from '../../helpers/properties';
import { outputProperties } from '../../helpers/output';
import type { OperationModule } from '../../helpers/types';
import { SOCIAL_FIELDS } from './fields';
import { socialJob } from '../../jobs/social';
import { prepareGeneration, runGenerate } from '../../jobs/start';
import { readOutputOptions } from './output';
import { socialOutputOptions } from './outputOptions';

export const option: OperationModule['option'] = {
	name: 'Generate',
	action: 'Generate social content',
	description:
		'Create posts for 1 to 10 platforms from a web page, blog post or YouTube video, and optionally wait until they are written',
};

/** Output options only mean something once the record is finished. */
const whenWaiting = socialOutputOptions.map((entry) => ({
	...entry,
	displayOptions: {
		show: { ...(entry.displayOptions?.show ?? {}), '/waitForCompletion': [true] },
	},
}));

export const properties: INodeProperties[] = [
	{
		displayName: 'Source URL',
		name: 'sourceUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/blog/launch-post',
		description:
			'The web page, blog post or YouTube video to turn into social posts (full http or https URL)',
	},
	{
		displayName: 'Platforms',
		name: 'platforms',
		type: 'multiOptions',
		required: true,
		options: platformOptions,
		default: [],
		description: `Platforms to write posts for (${BOUNDS.platforms.min}-${BOUNDS.platforms.max}). Costs 0.6 credits per platform, e.g. 1.8 credits for 3.`,
	},
	waitForCompletionProperty(
		"Whether to wait until the posts are finished and output the social content with its captions and images (polls for free; usually under a minute). Otherwise outputs its ID at once, for a 'Wait for Completion' later.",
	),
	...outputProperties(SOCIAL_FIELDS, { waitForCompletion: [true] }),
	additionalFields([
		{
			displayName: 'Angle',
			name: 'angle',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			description: `Direction for the posts, e.g. "focus on the pricing change" (at most ${BOUNDS.angle.max} characters)`,
		},
		projectLocator(
			'The project whose brand and language to use (default: the active project of the account)',
		),
		{
			displayName: 'Source Type',
			name: 'sourceType',
			type: 'options',
			options: SOURCE_TYPES.map((type) => ({
				name: type === 'youtube' ? 'YouTube' : type[0].toUpperCase() + type.slice(1),
				value: type,
			})).sort((a, b) => a.name.localeCompare(b.name)),
			default: 'website',
			description: 'What the source URL points to',
		},
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			description: `Title for the social content instead of the one derived from the source (at most ${BOUNDS.title.max} characters)`,
		},
	]),
	optionsCollection([minimumBalanceOption, ...waitOptions('social', true), ...whenWaiting]),
];

function prepare(this: IExecuteFunctions, itemIndex: number) {
	const platforms = validatePlatforms('Platforms', this.getNodeParameter('platforms', itemIndex));
	const body: IDataObject = {
		source_url: assertHttpUrl('Source URL', this.getNodeParameter('sourceUrl', itemIndex)),
		platforms,
	};
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	if (fields.sourceType !== undefined) body.source_type = validateSourceType(fields.sourceType);
	if (fields.angle !== undefined && fields.angle !== '') body.angle = validateAngle(fields.angle);
	if (fields.title !== undefined && fields.title !== '') body.title = validateTitle(fields.title);
	const projectId = readProjectId(fields.projectId ?? '', false);
	if (projectId) body.project_id = projectId;
	// Checked now so a bad output option fails before anything is spent, not after the wait.
	if (readSwitch(this, 'waitForCompletion', itemIndex)) readOutputOptions(this, itemIndex);
	const cost = COST_HUNDREDTHS.socialPerPlatform * platforms.length;
	return prepareGeneration(this, itemIndex, 'social', body, cost);
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runGenerate.call(this, items, {
		job: socialJob,
		endpoint: '/social/generate',
		prepare,
		present(data) {
			const output: IDataObject = { ...data };
			if ('credits_deducted' in data)
				output.credits_deducted = normaliseCredits(data.credits_deducted);
			if ('credits_remaining' in data)
				output.credits_remaining = normaliseCredits(data.credits_remaining);
			return output;
		},
		explain: insufficientCredits,
	});
}
