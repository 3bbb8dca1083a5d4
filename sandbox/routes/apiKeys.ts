import { iso } from '../clock';
import { MAX_ACTIVE_KEYS, PERMISSIONS, SCOPES } from '../constants';
import type { Ctx, Reply } from '../http';
import { FlatError, isUuid } from '../http';
import { keyListItem } from '../render';

function stringSet(v: unknown, name: string, allowed: readonly string[], def: string[]): string[] {
	if (v === undefined || v === null) return def;
	if (!Array.isArray(v) || v.length === 0) {
		throw new FlatError(400, `${name} must be a non-empty array of: ${allowed.join(', ')}`);
	}
	for (const x of v) {
		if (typeof x !== 'string' || !allowed.includes(x)) {
			throw new FlatError(
				400,
				`Invalid ${name} value ${JSON.stringify(x)}; allowed: ${allowed.join(', ')}`,
			);
		}
	}
	return [...new Set(v as string[])];
}

export function createApiKey(ctx: Ctx): Reply {
	const b = ctx.body;
	if (b === undefined || b === null || typeof b !== 'object' || Array.isArray(b)) {
		throw new FlatError(400, 'Request body must be a JSON object');
	}
	const body = b as Record<string, unknown>;
	const name = body.name;
	if (typeof name !== 'string' || name.trim().length < 1 || name.length > 100) {
		throw new FlatError(400, 'name is required and must be 1-100 characters');
	}
	const permissions = stringSet(body.permissions, 'permissions', PERMISSIONS, ['read']);
	// scopes are optional in the spec; omitted means every scope
	const scopes = stringSet(body.scopes, 'scopes', SCOPES, [...SCOPES]);
	let expiresInDays: number | undefined;
	if (body.expires_in_days !== undefined && body.expires_in_days !== null) {
		const d = body.expires_in_days;
		if (typeof d !== 'number' || !Number.isInteger(d) || d < 1 || d > 365) {
			throw new FlatError(400, 'expires_in_days must be an integer between 1 and 365');
		}
		expiresInDays = d;
	}
	const active = ctx.store.keysOf(ctx.user.id).filter((k) => ctx.store.keyIsActive(k, ctx.now));
	if (active.length >= MAX_ACTIVE_KEYS) {
		throw new FlatError(
			400,
			`Maximum of ${MAX_ACTIVE_KEYS} active API keys reached; revoke a key before creating another`,
		);
	}
	const { rec, key } = ctx.store.createKey(
		ctx.user.id,
		{ name, permissions, scopes, expiresInDays },
		ctx.now,
	);
	return {
		status: 201,
		body: {
			success: true,
			data: {
				id: rec.id,
				name: rec.name,
				key,
				key_prefix: rec.prefix,
				permissions: rec.permissions,
				scopes: rec.scopes,
				created_at: iso(rec.createdAt),
				expires_at: rec.expiresAt === null ? null : iso(rec.expiresAt),
			},
		},
	};
}

export function listApiKeys(ctx: Ctx): Reply {
	const keys = ctx.store
		.keysOf(ctx.user.id)
		.sort((x, y) => y.createdAt - x.createdAt)
		.map((k) => keyListItem(k, ctx.store.keyIsActive(k, ctx.now)));
	return { status: 200, body: { success: true, data: keys } };
}

export function revokeApiKey(ctx: Ctx): Reply {
	const id = ctx.params[0];
	const k = isUuid(id) ? ctx.store.keys.get(id.toLowerCase()) : undefined;
	if (!k || k.userId !== ctx.user.id || k.revokedAt !== null) {
		throw new FlatError(404, 'API key not found');
	}
	k.revokedAt = ctx.now;
	return { status: 200, body: { success: true, message: 'API key revoked' } };
}
