import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { downloadFile } from '../../../shared/transport';
import { validateBoolean, validateMaxImageSizeMb } from '../../../shared/validation';
import { pick } from '../../helpers/lists';
import { readSwitch } from '../../helpers/items';

export const DEFAULT_MAX_IMAGE_MB = 10;

export interface SocialOutputOptions {
	splitByPlatform?: boolean;
	downloadImages?: boolean;
	simplify?: boolean;
	maxImageBytes?: number;
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
export function platformView(record: IDataObject): {
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

/** The record with `platform_names` and `captions` added (raw), or the simplified view. */
export function normaliseSocialRecord(record: IDataObject, simplify = false): IDataObject {
	const view = platformView(record);
	if (!simplify) return { ...record, ...view };
	return {
		...pick(record, SIMPLE_FIELDS),
		platforms: view.platform_names,
		...view,
	};
}

/** One row per platform: what a poster or a spreadsheet wants. */
export function splitRecordByPlatform(record: IDataObject): IDataObject[] {
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
	contentId: unknown,
	platform: string,
	url: string,
	itemIndex: number,
	maxBytes: number,
) {
	const file = await downloadFile(context, url, maxBytes, {
		label: `${platform} image`,
		itemIndex,
	});
	const extension = file.mimeType ? EXTENSION_BY_MIME[file.mimeType] : undefined;
	const fallbackName = `${typeof contentId === 'string' ? contentId : 'social'}-${platform}${extension ? `.${extension}` : ''}`;
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
	options: SocialOutputOptions = {},
): Promise<INodeExecutionData[]> {
	const maxBytes = options.maxImageBytes ?? DEFAULT_MAX_IMAGE_MB * 1024 * 1024;
	const images = stringMap(record.image_urls);

	if (options.splitByPlatform) {
		const rows = splitRecordByPlatform(record);
		const items: INodeExecutionData[] = [];
		for (const row of rows) {
			const item: INodeExecutionData = { json: row };
			const url = images[row.platform as string];
			if (options.downloadImages && url) {
				item.binary = {
					image: await imageBinary(
						this,
						record.id,
						row.platform as string,
						url,
						itemIndex,
						maxBytes,
					),
				};
			}
			items.push(item);
		}
		return items;
	}

	const item: INodeExecutionData = {
		json: normaliseSocialRecord(record, options.simplify === true),
	};
	if (options.downloadImages) {
		const binary: IBinaryKeyData = {};
		for (const [platform, url] of Object.entries(images)) {
			binary[`image_${platform}`] = await imageBinary(
				this,
				record.id,
				platform,
				url,
				itemIndex,
				maxBytes,
			);
		}
		if (Object.keys(binary).length > 0) item.binary = binary;
	}
	return [item];
}

/** Bytes from the "Max Image Size (MB)" option, validated before anything is sent. */
export function maxImageBytes(megabytes: unknown): number {
	return validateMaxImageSizeMb(megabytes, DEFAULT_MAX_IMAGE_MB);
}

/** Output of one record as the item's Simplify and Options ask. */
export async function shapeSocial(this: IExecuteFunctions, record: IDataObject, itemIndex: number) {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return await shapeSocialOutput.call(this, record, itemIndex, {
		simplify: readSwitch(this, 'simplify', itemIndex),
		splitByPlatform: validateBoolean('Split by Platform', options.splitByPlatform),
		downloadImages: validateBoolean('Download Images', options.downloadImages),
		maxImageBytes: maxImageBytes(options.maxImageSizeMb),
	});
}
