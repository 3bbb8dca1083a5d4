import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { ARTICLE_TONES, BOUNDS, COST_HUNDREDTHS } from '../../../shared/constants';
import { projectLocator, readProjectId } from '../../../shared/domain/projects';
import {
	validateKeywords,
	validateTone,
	validateTopic,
	validateWordCount,
} from '../../../shared/validation';
import { insufficientCredits, minimumBalanceOption } from '../../helpers/budget';
import {
	additionalFields,
	optionsCollection,
	waitForCompletionProperty,
	waitOptions,
} from '../../helpers/properties';
import { outputProperties } from '../../helpers/output';
import type { OperationModule } from '../../helpers/types';
import { ARTICLE_FIELDS } from './output';
import { articleJob } from '../../jobs/article';
import { prepareGeneration, runGenerate } from '../../jobs/start';

export const option: OperationModule['option'] = {
	name: 'Generate',
	action: 'Generate article',
	description:
		'Create a new long-form article for a project from a topic, and optionally wait until it is written',
};

const wordCountDefault = BOUNDS.wordCount.default;

export const properties: INodeProperties[] = [
	projectLocator(
		'The project whose brand, business context and language the article is written for',
		{ required: true },
	),
	{
		displayName: 'Topic',
		name: 'topic',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. How to choose a CRM for a small agency',
		description: `What the article is about (${BOUNDS.topic.min}-${BOUNDS.topic.max} characters). Generating costs 1.5 credits.`,
	},
	waitForCompletionProperty(
		"Whether to wait until the article is finished and output it with its content (polls for free; usually a few minutes). Otherwise outputs its ID at once, for a 'Wait for Completion' later.",
	),
	...outputProperties(ARTICLE_FIELDS, { waitForCompletion: [true] }),
	additionalFields([
		{
			displayName: 'Keywords',
			name: 'keywords',
			type: 'string',
			default: '',
			placeholder: 'e.g. crm, small business, sales pipeline',
			description: `Comma-separated keywords to work into the article (at most ${BOUNDS.keywords.max}); an expression may give a list`,
		},
		{
			displayName: 'Tone',
			name: 'tone',
			type: 'options',
			options: ARTICLE_TONES.map((tone) => ({
				name: tone[0].toUpperCase() + tone.slice(1),
				value: tone,
			})).sort((a, b) => a.name.localeCompare(b.name)),
			default: 'professional',
			description:
				'Writing tone of the article. Without this field the service writes in its own default tone.',
		},
		{
			displayName: 'Word Count',
			name: 'wordCount',
			type: 'number',
			typeOptions: { minValue: BOUNDS.wordCount.min, maxValue: BOUNDS.wordCount.max },
			default: wordCountDefault,
			description: `Target length in words (${BOUNDS.wordCount.min}-${BOUNDS.wordCount.max}). Without this field the service writes ${wordCountDefault} words.`,
		},
	]),
	optionsCollection([minimumBalanceOption, ...waitOptions('article', true)]),
];

function prepare(this: IExecuteFunctions, itemIndex: number) {
	const body: IDataObject = {
		topic: validateTopic(this.getNodeParameter('topic', itemIndex)),
		project_id: readProjectId(this.getNodeParameter('projectId', itemIndex, ''), true),
	};
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	if (fields.keywords !== undefined) {
		const keywords = validateKeywords(fields.keywords);
		if (keywords.length > 0) body.keywords = keywords;
	}
	if (fields.tone !== undefined) body.tone = validateTone(fields.tone);
	if (fields.wordCount !== undefined) body.word_count = validateWordCount(fields.wordCount);
	return prepareGeneration(this, itemIndex, 'article', body, COST_HUNDREDTHS.article);
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runGenerate.call(this, items, {
		job: articleJob,
		endpoint: '/articles/generate',
		prepare,
		present(data) {
			// In this response credits_deducted / credits_remaining count articles, not credits.
			const { credits_deducted: billed, credits_remaining: remaining, ...rest } = data;
			const output: IDataObject = { ...rest };
			if (billed !== undefined) output.articles_billed = billed;
			if (remaining !== undefined) output.articles_remaining = remaining;
			return output;
		},
		explain: insufficientCredits,
	});
}
