import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_IMAGE_FIELD, DEFAULT_MAX_IMAGE_MB } from './output';

/** Output options shared by Get and Wait for Completion. */
export const socialOutputOptions: INodeProperties[] = [
	{
		displayName: 'Download Images',
		name: 'downloadImages',
		type: 'boolean',
		default: false,
		description:
			"Whether to download each platform's generated image as a file of the item, in the field 'Put Output Images in Field' names",
	},
	{
		displayName: 'Put Output Images in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: DEFAULT_IMAGE_FIELD,
		placeholder: 'e.g. image',
		description:
			'The output field of the images: this name, an underscore and the platform (e.g. image_instagram), or this name alone when split by platform',
		displayOptions: { show: { downloadImages: [true] } },
	},
	{
		displayName: 'Max Image Size (MB)',
		name: 'maxImageSizeMb',
		type: 'number',
		typeOptions: { minValue: 0.1, maxValue: 1024, numberPrecision: 1 },
		default: DEFAULT_MAX_IMAGE_MB,
		description: `An image larger than this stops the item instead of being downloaded. Defaults to ${DEFAULT_MAX_IMAGE_MB}.`,
		displayOptions: { show: { downloadImages: [true] } },
	},
	{
		displayName: 'Split by Platform',
		name: 'splitByPlatform',
		type: 'boolean',
		default: false,
		description:
			'Whether to output one item per platform, with its caption, image, video, first comment and carousel plan, instead of one item per social content',
	},
];
