import { VIDEO_PLATFORMS } from '../constants';
import type { Ctx, Reply } from '../http';
import { isUuid } from '../http';
import { makeMp4Placeholder, makePng } from '../png';
import { hashString } from '../prng';
import { ApiError } from '../store';

/** Media behind the URLs of a finished record: public, like a CDN, so no auth. */
export function serveFile(ctx: Ctx): Reply {
	const [id, name] = ctx.params;
	const s = isUuid(id) ? ctx.store.social.get(id.toLowerCase()) : undefined;
	const m = /^([a-z-]+?)(-overlay)?\.(png|mp4)$/.exec(name);
	if (!s || !s.finished || !m || !s.platforms.includes(m[1])) {
		throw new ApiError(404, 'NOT_FOUND', 'File not found');
	}
	const [, platform, overlay, ext] = m;
	if (ext === 'mp4') {
		if (overlay || !VIDEO_PLATFORMS.includes(platform))
			throw new ApiError(404, 'NOT_FOUND', 'File not found');
		return {
			status: 200,
			raw: makeMp4Placeholder(),
			contentType: 'video/mp4',
			headers: { 'Cache-Control': 'public, max-age=31536000' },
		};
	}
	return {
		status: 200,
		raw: makePng(hashString(`${s.id}/${name}`), overlay ? 16 : 8),
		contentType: 'image/png',
		headers: { 'Cache-Control': 'public, max-age=31536000' },
	};
}
