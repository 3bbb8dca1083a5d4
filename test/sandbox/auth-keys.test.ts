import axios from 'axios';

import { startSandbox, type Sandbox } from '../../sandbox';
import { api, expectError, session, UUID } from './helpers';

let sb: Sandbox;
let sb403: Sandbox;
// its own instance: control.createKey bypasses the 10-key limit, which the key-route tests count
let sbKeys: Sandbox;

beforeAll(async () => {
	[sb, sb403, sbKeys] = await Promise.all([
		startSandbox({ seed: 31, speed: 1000 }),
		startSandbox({ seed: 32, authFailureStatus: 403 }),
		startSandbox({ seed: 33 }),
	]);
});
afterAll(async () => {
	await Promise.all([sb.close(), sb403.close(), sbKeys.close()]);
});

function expectFlat(r: { status: number; data: unknown }, status: number): void {
	expect(r.status).toBe(status);
	expect(r.data).toEqual({ error: expect.any(String) });
}

describe('Bearer authentication', () => {
	it('accepts the ready key and puts X-Request-Id on every response', async () => {
		const r = await api(sb).get('/user/credits');
		expect(r.status).toBe(200);
		expect(r.headers['x-request-id']).toMatch(/\S/);
	});

	it.each([
		['no Authorization header', null],
		['an unknown key', 'svc_' + 'a'.repeat(64)],
		['a malformed key', 'hello'],
	])('answers 401 UNAUTHORIZED to %s', async (_n, key) => {
		expectError(await api(sb, key).get('/articles'), 401, 'UNAUTHORIZED');
	});

	it('answers with the configured status (403) when authFailureStatus is 403', async () => {
		expectError(await api(sb403, null).get('/articles'), 403, 'UNAUTHORIZED');
		expectError(await api(sb403, 'svc_' + '0'.repeat(64)).get('/articles'), 403, 'UNAUTHORIZED');
	});

	it('rejects an expired key once the clock passes expires_at', async () => {
		const key = sb.control.createKey({ expiresInDays: 1 });
		expect((await api(sb, key).get('/projects')).status).toBe(200);
		sb.control.advance(86_400_001);
		expectError(await api(sb, key).get('/projects'), 401, 'UNAUTHORIZED', /expired/);
	});

	it('rejects a non-Bearer Authorization scheme', async () => {
		const r = await axios.get(`${sb.url}/api/v1/articles`, {
			headers: { Authorization: `Basic ${sb.apiKey}` },
			validateStatus: () => true,
		});
		expectError(r, 401, 'UNAUTHORIZED');
	});
});

describe('permissions and scopes', () => {
	it('needs write for POST: a read-only key gets 403 naming the permission, and is not charged', async () => {
		const key = sb.control.createKey({ permissions: ['read'] });
		const projectId = sb.control.projects()[0].id;
		const before = sb.control.ledger().length;
		expectError(
			await api(sb, key).post('/articles/generate', { topic: 'Some topic', project_id: projectId }),
			403,
			'FORBIDDEN',
			/'write' permission/,
		);
		expectError(
			await api(sb, key).post('/social/generate', {
				source_url: 'https://a.example',
				platforms: ['reddit'],
			}),
			403,
			'FORBIDDEN',
			/write/,
		);
		expect(sb.control.ledger().length).toBe(before);
		expect((await api(sb, key).get('/articles')).status).toBe(200);
	});

	it('needs read for GET', async () => {
		const key = sb.control.createKey({ permissions: ['write'] });
		expectError(await api(sb, key).get('/articles'), 403, 'FORBIDDEN', /'read' permission/);
	});

	it.each([
		['articles', '/articles'],
		['social', '/social/content'],
		['projects', '/projects'],
		['user', '/user/credits'],
		['user', '/user/usage'],
	])('needs the %s scope for GET %s', async (scope, path) => {
		const others = ['articles', 'social', 'projects', 'user'].filter((s) => s !== scope);
		const without = sb.control.createKey({ scopes: others });
		expectError(await api(sb, without).get(path), 403, 'FORBIDDEN', new RegExp(`'${scope}' scope`));
		const only = sb.control.createKey({ scopes: [scope], permissions: ['read'] });
		expect((await api(sb, only).get(path)).status).toBe(200);
	});

	it('names both when permission and scope are missing', async () => {
		const key = sb.control.createKey({ permissions: ['read'], scopes: ['user'] });
		expectError(
			await api(sb, key).post('/social/publish', {
				content_id: '00000000-0000-4000-8000-000000000000',
			}),
			403,
			'FORBIDDEN',
			/'write' permission.*'social' scope/,
		);
	});
});

describe('session-only API key routes', () => {
	it('creates a key (shown once, svc_ + 64 hex), lists it masked, and the key works', async () => {
		const r = await session(sbKeys).post('/api-keys', {
			name: 'CI key',
			permissions: ['read', 'write'],
			scopes: ['articles', 'projects'],
			expires_in_days: 30,
		});
		expect(r.status).toBe(201);
		const d = r.data.data;
		expect(r.data.success).toBe(true);
		expect(d.key).toMatch(/^svc_[0-9a-f]{64}$/);
		expect(d.id).toMatch(UUID);
		expect(d).toMatchObject({
			name: 'CI key',
			permissions: ['read', 'write'],
			scopes: ['articles', 'projects'],
		});
		expect(Date.parse(d.expires_at) - Date.parse(d.created_at)).toBe(30 * 86_400_000);
		expect(d.key.startsWith(d.key_prefix)).toBe(false);
		expect(d.key_prefix.length).toBeLessThan(d.key.length);

		const list = await session(sbKeys).get('/api-keys');
		expect(list.status).toBe(200);
		const item = list.data.data.find((k: { id: string }) => k.id === d.id);
		expect(Object.keys(item).sort()).toEqual(
			[
				'created_at',
				'expires_at',
				'id',
				'is_active',
				'key_prefix',
				'last_used_at',
				'name',
				'permissions',
				'scopes',
			].sort(),
		);
		expect(item).toMatchObject({ is_active: true, last_used_at: null, key_prefix: d.key_prefix });
		expect(JSON.stringify(list.data)).not.toContain(d.key);

		expect((await api(sbKeys, d.key).get('/projects')).status).toBe(200);
		const after = await session(sbKeys).get('/api-keys');
		const used = after.data.data.find((k: { id: string }) => k.id === d.id);
		expect(used.last_used_at).not.toBeNull();
	});

	it('defaults permissions to read', async () => {
		const r = await session(sbKeys).post('/api-keys', { name: 'Reader' });
		expect(r.status).toBe(201);
		expect(r.data.data.permissions).toEqual(['read']);
		expect(r.data.data.expires_at).toBeNull();
	});

	it('revokes at once: the next request with the key fails', async () => {
		const created = await session(sbKeys).post('/api-keys', {
			name: 'Short lived',
			permissions: ['read'],
		});
		const { id, key } = created.data.data;
		expect((await api(sbKeys, key).get('/projects')).status).toBe(200);
		const del = await session(sbKeys).delete(`/api-keys/${id}`);
		expect(del.status).toBe(200);
		expect(del.data).toEqual({ success: true, message: expect.any(String) });
		expectError(await api(sbKeys, key).get('/projects'), 401, 'UNAUTHORIZED', /revoked/);
		const list = await session(sbKeys).get('/api-keys');
		expect(list.data.data.find((k: { id: string }) => k.id === id).is_active).toBe(false);
		expectFlat(await session(sbKeys).delete(`/api-keys/${id}`), 404);
	});

	it('allows at most 10 active keys (flat error), and revoking frees a slot', async () => {
		const list = await session(sbKeys).get('/api-keys');
		const active = list.data.data.filter((k: { is_active: boolean }) => k.is_active).length;
		const made: string[] = [];
		for (let i = active; i < 10; i++) {
			const r = await session(sbKeys).post('/api-keys', { name: `bulk ${i}` });
			expect(r.status).toBe(201);
			made.push(r.data.data.id);
		}
		const over = await session(sbKeys).post('/api-keys', { name: 'eleventh' });
		expectFlat(over, 400);
		expect(over.data.error).toMatch(/10/);
		expect((await session(sbKeys).delete(`/api-keys/${made[0]}`)).status).toBe(200);
		expect((await session(sbKeys).post('/api-keys', { name: 'fits again' })).status).toBe(201);
	});

	it.each([
		['a missing name', {}],
		['an empty name', { name: '' }],
		['a 101-character name', { name: 'n'.repeat(101) }],
		['an unknown permission', { name: 'x', permissions: ['admin'] }],
		['an unknown scope', { name: 'x', scopes: ['billing'] }],
		['expires_in_days 0', { name: 'x', expires_in_days: 0 }],
		['expires_in_days 366', { name: 'x', expires_in_days: 366 }],
	])('rejects %s with a flat 400 error', async (_n, body) => {
		expectFlat(await session(sbKeys).post('/api-keys', body), 400);
	});

	it('refuses API keys and missing sessions with the flat shape', async () => {
		const withKey = await axios.get(`${sbKeys.url}/api/v1/api-keys`, {
			headers: { Authorization: `Bearer ${sbKeys.apiKey}` },
			validateStatus: () => true,
		});
		expectFlat(withKey, 401);
		expectFlat(await session(sbKeys, null).get('/api-keys'), 401);
		expectFlat(await session(sbKeys, 'cg_session=forged').post('/api-keys', { name: 'x' }), 401);
		expectFlat(await session(sbKeys).delete('/api-keys/00000000-0000-4000-8000-000000000000'), 404);
	});

	it("cannot see or revoke another user's keys", async () => {
		const otherKey = sbKeys.control.createKey({
			userId: sbKeys.control.otherUserId,
			name: 'theirs',
		});
		const list = await session(sbKeys).get('/api-keys');
		expect(list.data.data.some((k: { name: string }) => k.name === 'theirs')).toBe(false);
		expect((await api(sbKeys, otherKey).get('/projects')).status).toBe(200);
	});
});

describe('routing', () => {
	it.each([
		['GET', '/api/v1/nothing'],
		['DELETE', '/api/v1/articles'],
		['POST', '/api/v1/articles'],
		['GET', '/api/v1/articles/generate'],
		['PUT', '/api/v1/projects'],
		['GET', '/'],
	])('%s %s answers 404 NOT_FOUND in the Bearer envelope', async (method, path) => {
		const r = await axios.request({
			method,
			url: `${sb.url}${path}`,
			headers: { Authorization: `Bearer ${sb.apiKey}` },
			validateStatus: () => true,
		});
		expectError(r, 404, 'NOT_FOUND');
	});

	it('logs every request with user, status and body', async () => {
		sb.control.resetRequests();
		await api(sb).get('/projects', { params: { search: 'coffee' } });
		await api(sb, null).get('/projects');
		await api(sb).post('/social/publish', { content_id: 'x' });
		const log = sb.control.requests();
		expect(log.map((e) => [e.method, e.path, e.status])).toEqual([
			['GET', '/api/v1/projects', 200],
			['GET', '/api/v1/projects', 401],
			['POST', '/api/v1/social/publish', 400],
		]);
		expect(log[0]).toMatchObject({ userId: sb.control.defaultUserId, query: { search: 'coffee' } });
		expect(log[1].userId).toBeNull();
		expect(log[2].body).toEqual({ content_id: 'x' });
	});
});
