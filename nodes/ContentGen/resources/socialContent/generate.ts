import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { BOUNDS, COST_HUNDREDTHS, SOURCE_TYPES } from '../../../shared/constants';
import {
	assertHttpUrl,
	validateAngle,
	validatePlatforms,
	validateSourceType,
	validateTitle,
} from '../../../shared/validation';
import { minimumBalanceOption, normaliseCredits } from '../../helpers/budget';
import {
	additionalFieldsCollection,
	optionsCollection,
	simplifyProperty,
	waitForCompletionProperty,
} from '../../helpers/descriptions';
import { prepareGeneration, runGenerate } from '../../helpers/generation';
import { projectLocator, resolveProjectId } from '../../helpers/project';
import { waitOptions } from '../../helpers/waiting';
import { platformOptions } from '../../../shared/domain/platforms';
import { socialOutputOptions } from './descriptions';
import { maxImageBytes, shapeSocial } from './output';
import { socialJob } from './waitForCompletion';
import { readSwitch } from '../../helpers/items';

const show = { resource: ['socialContent'], operation: ['generate'] };

/** Inside a collection the locator must not carry the top-level show rules. */
const optionalProject: INodeProperties = {
	...projectLocator({
		resource: 'socialContent',
		operations: ['generate'],
		required: false,
		description:
			'The project whose brand and language to use (default: the active project of the account)',
	}),
	displayOptions: undefined,
};

/** Output options only mean something once the record is finished. */
const whenWaiting = socialOutputOptions.map((option) => ({
	...option,
	displayOptions: {
		show: { ...(option.displayOptions?.show ?? {}), '/waitForCompletion': [true] },
	},
}));

export const description: INodeProperties[] = [
	{
		displayName: 'Source URL',
		name: 'sourceUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/blog/launch-post',
		description:
			'The web page, blog post or YouTube video to turn into social posts (full http or https URL)',
		displayOptions: { show },
	},
	{
		displayName: 'Platforms',
		name: 'platforms',
		type: 'multiOptions',
		required: true,
		options: platformOptions,
		default: [],
		description: `Platforms to write posts for (${BOUNDS.platforms.min}-${BOUNDS.platforms.max}). Costs 0.6 credits per platform, e.g. 1.8 credits for 3.`,
		displayOptions: { show },
	},
	waitForCompletionProperty(
		'socialContent',
		'generate',
		'Whether to wait until the posts are finished and output the record with its captions and images (polls for free; usually under a minute). Otherwise outputs the content_id at once.',
	),
	simplifyProperty('socialContent', ['generate'], { waitForCompletion: [true] }),
	additionalFieldsCollection('socialContent', 'generate', [
		{
			displayName: 'Angle',
			name: 'angle',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			description: `Direction for the posts, e.g. "focus on the pricing change" (at most ${BOUNDS.angle.max} characters)`,
		},
		optionalProject,
		{
			displayName: 'Source Type',
			name: 'sourceType',
			type: 'options',
			options: SOURCE_TYPES.map((type) => ({
				name: type === 'youtube' ? 'YouTube' : type[0].toUpperCase() + type.slice(1),
				value: type,
			})),
			default: 'website',
			description: 'What the source URL points to',
		},
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			description: `Title for the record instead of the one derived from the source (at most ${BOUNDS.title.max} characters)`,
		},
	]),
	optionsCollection('socialContent', 'generate', [
		minimumBalanceOption,
		...waitOptions('social', true),
		...whenWaiting,
	]),
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
	const projectId = resolveProjectId.call(this, itemIndex, 'additionalFields.projectId', false);
	if (projectId) body.project_id = projectId;
	const wait = readSwitch(this, 'waitForCompletion', itemIndex);
	// Checked now so a bad size fails before anything is spent, not after the wait.
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	if (wait) maxImageBytes(options.maxImageSizeMb);
	const cost = COST_HUNDREDTHS.socialPerPlatform * platforms.length;
	return prepareGeneration(this, itemIndex, 'social', body, cost);
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runGenerate.call(this, items, {
		kind: socialJob,
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
		shape: shapeSocial,
	});
}
