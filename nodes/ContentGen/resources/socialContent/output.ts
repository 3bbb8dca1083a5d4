import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { downloadFile } from '../../../shared/transport/download';
import type { ServiceRoot } from '../../../shared/transport/origin';
import { connect } from '../../../shared/transport/request';
import { validateFieldName, validateMaxImageSizeMb } from '../../../shared/validation';
import { applyOutput, readOutput, type Output } from '../../helpers/output';
import { pick } from '../../helpers/pick';
import { callOptions, readSwitch } from '../../helpers/parameters';

export const DEFAULT_MAX_IMAGE_MB = 10;
/** The images' binary field before it could be named: `image`, or `image_<platform>`. */
export const DEFAULT_IMAGE_FIELD = 'image';

interface SocialOutputOptions {
	splitByPlatform: boolean;
	downloadImages: boolean;
	output: Output;
	maxImageBytes: number;
	imageField: string;
	timeoutMs: number;
}

const SIMPLE_FIELDS = [
	'id',
	'title',
	'status',
	'image_urls',
	'scheduled_publish_at',
	'error_message',
] as const;

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringMap(value: unknown): Record<string, string> {
	const out: Record<string, string> = {};
	if (!isObject(value)) return out;
	for (const [key, entry] of Object.entries(value)) if (typeof entry === 'string') out[key] = entry;
	return out;
}

/**
 * `platforms` is a list of names while generating and an object of captions once finished;
 * these two fields have the same shape either way.
 */
function platformView(record: IDataObject): {
	platform_names: string[];
	captions: Record<string, string>;
} {
	const platforms = record.platforms;
	if (Array.isArray(platforms)) {
		return {
			platform_names: platforms.filter((name): name is string => typeof name === 'string'),
			captions: {},
		};
	}
	if (isObject(platforms)) {
		const captions: Record<string, string> = {};
		for (const [name, caption] of Object.entries(platforms)) {
			captions[name] =
				typeof caption === 'string'
					? caption
					: caption === null || caption === undefined
						? ''
						: JSON.stringify(caption);
		}
		return { platform_names: Object.keys(platforms), captions };
	}
	return { platform_names: [], captions: {} };
}

/**
 * The record with `platform_names` and `captions` added, then as the item's Output asks: whole,
 * the simplified view, or the fields selected.
 */
export function normaliseSocialRecord(record: IDataObject, output: Output): IDataObject {
	const view = platformView(record);
	return applyOutput({ ...record, ...view }, output, () => ({
		...pick(record, SIMPLE_FIELDS),
		platforms: view.platform_names,
		...view,
	}));
}

/** One row per platform: what a poster or a spreadsheet wants. */
function splitRecordByPlatform(record: IDataObject): IDataObject[] {
	const { platform_names: names, captions } = platformView(record);
	const images = stringMap(record.image_urls);
	const videos = stringMap(record.video_urls);
	const comments = stringMap(record.first_comments);
	return names.map((platform) => {
		const plan = record[`${platform}_carousel_plan`];
		return {
			content_id: record.id ?? null,
			platform,
			caption: captions[platform] ?? null,
			image_url: images[platform] ?? null,
			video_url: videos[platform] ?? null,
			first_comment: comments[platform] ?? null,
			carousel_plan: Array.isArray(plan) ? plan : [],
			title: record.title ?? null,
			status: record.status ?? null,
			scheduled_publish_at: record.scheduled_publish_at ?? null,
		};
	});
}

const EXTENSION_BY_MIME: Record<string, string> = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/webp': 'webp',
	'image/gif': 'gif',
	'image/svg+xml': 'svg',
};

async function imageBinary(
	context: IExecuteFunctions,
	service: ServiceRoot,
	record: IDataObject,
	platform: string,
	url: string,
	itemIndex: number,
	options: SocialOutputOptions,
) {
	const file = await downloadFile(context, service, url, options.maxImageBytes, {
		label: `${platform} image`,
		itemIndex,
		timeoutMs: options.timeoutMs,
	});
	const extension = file.mimeType ? EXTENSION_BY_MIME[file.mimeType] : undefined;
	const contentId = typeof record.id === 'string' ? record.id : 'social';
	const fallbackName = `${contentId}-${platform}${extension ? `.${extension}` : ''}`;
	return await context.helpers.prepareBinaryData(
		file.data,
		file.fileName ?? fallbackName,
		file.mimeType,
	);
}

/**
 * Output items of one social content record: one item, or one per platform, with the images
 * as binary data when asked. Callers pair the items with their input item.
 */
export async function shapeSocialOutput(
	this: IExecuteFunctions,
	record: IDataObject,
	itemIndex: number,
	options: SocialOutputOptions,
): Promise<INodeExecutionData[]> {
	const images = stringMap(record.image_urls);
	const service = options.downloadImages ? (await connect(this)).root : undefined;
	const image = async (platform: string, url: string) =>
		await imageBinary(this, service as ServiceRoot, record, platform, url, itemIndex, options);

	if (options.splitByPlatform) {
		const items: INodeExecutionData[] = [];
		for (const row of splitRecordByPlatform(record)) {
			const item: INodeExecutionData = { json: row };
			const url = images[row.platform as string];
			if (options.downloadImages && url)
				item.binary = { [options.imageField]: await image(row.platform as string, url) };
			items.push(item);
		}
		return items;
	}

	const item: INodeExecutionData = { json: normaliseSocialRecord(record, options.output) };
	if (options.downloadImages) {
		const binary: IBinaryKeyData = {};
		for (const [platform, url] of Object.entries(images))
			binary[`${options.imageField}_${platform}`] = await image(platform, url);
		if (Object.keys(binary).length > 0) item.binary = binary;
	}
	return [item];
}

/** The output options of an item, all checked: called before anything is sent, and again to shape. */
export function readOutputOptions(
	context: IExecuteFunctions,
	itemIndex: number,
): SocialOutputOptions {
	return {
		output: readOutput(context, itemIndex),
		splitByPlatform: readSwitch(context, 'options.splitByPlatform', itemIndex),
		downloadImages: readSwitch(context, 'options.downloadImages', itemIndex),
		maxImageBytes: validateMaxImageSizeMb(
			context.getNodeParameter('options.maxImageSizeMb', itemIndex, DEFAULT_MAX_IMAGE_MB),
			DEFAULT_MAX_IMAGE_MB,
		),
		imageField: validateFieldName(
			'Put Output Images in Field',
			context.getNodeParameter('options.binaryPropertyName', itemIndex, DEFAULT_IMAGE_FIELD),
		),
		timeoutMs: callOptions(context, itemIndex).timeoutMs,
	};
}

/** Output of one record as the item's Output and Options ask. */
export async function shapeSocial(this: IExecuteFunctions, record: IDataObject, itemIndex: number) {
	return await shapeSocialOutput.call(this, record, itemIndex, readOutputOptions(this, itemIndex));
}
