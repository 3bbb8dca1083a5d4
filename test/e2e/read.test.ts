import type { IDataObject } from 'n8n-workflow';

import { searchProjects } from '../../nodes/shared/domain/projects';
import { startSandbox, type Sandbox } from '../../sandbox';
import { binaryBuffer } from '../helpers/binary';
import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';
import { loadOptionsContext } from '../helpers/loadOptions';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('read and publish operations against the sandbox over real HTTP', () => {
	let sandbox: Sandbox;
	let credentials: { apiKey: string; baseUrl: string };
	const run = (parameters: IDataObject, input?: IDataObject[]) =>
		runWorkflow(singleNodeWorkflow(parameters), { credentials, input });

	beforeAll(async () => {
		sandbox = await startSandbox({
			port: 0,
			speed: 2000,
			seed: 11,
			socialListOrder: 'created_desc',
		});
		credentials = { apiKey: sandbox.apiKey, baseUrl: sandbox.url };
	});
	afterAll(async () => {
		await sandbox.close();
	});
	beforeEach(() => sandbox.control.resetRequests());

	it('project: getMany, get through the locator, and the locator search', async () => {
		const known = sandbox.control.projects();
		expect(known.length).toBeGreaterThan(0);
		const list = await run({
			resource: 'project',
			operation: 'getMany',
			returnAll: true,
			output: 'simple',
		});
		expect(list.error).toBeUndefined();
		expect(
			list
				.output('ContentGen')
				.map((item) => item.json.id)
				.sort(),
		).toEqual(known.map((p) => p.id).sort());

		const target = known[0];
		const single = await run({
			resource: 'project',
			operation: 'get',
			projectId: { __rl: true, mode: 'list', value: target.id },
		});
		expect(single.output('ContentGen')[0].json).toMatchObject({
			id: target.id,
			business_name: target.business_name,
		});

		const search = await searchProjects.call(
			loadOptionsContext({}, credentials),
			target.business_name.slice(0, 4).toLowerCase(),
		);
		expect(search.results).toContainEqual({ name: target.business_name, value: target.id });
	});

	it('article: getMany with filters and a limit, get simplified, getStatus', async () => {
		const projectId = sandbox.control.projects()[0].id;
		const ids = sandbox.control.seedArticles(3, { projectId, status: 'needs_editing' });
		const list = await run({
			resource: 'article',
			operation: 'getMany',
			limit: 2,
			filters: {
				status: 'needs_editing',
				projectId: { __rl: true, mode: 'id', value: projectId },
			},
			sort: { sortBy: 'created_at', order: 'asc' },
		});
		expect(list.error).toBeUndefined();
		expect(list.output('ContentGen').map((item) => item.json.id)).toEqual(ids.slice(0, 2));
		const listRequests = sandbox.control.requests().filter((r) => r.path === '/api/v1/articles');
		expect(listRequests.map((r) => r.query)).toEqual([
			{
				page: '1',
				limit: '2',
				status: 'needs_editing',
				project_id: projectId,
				sort: 'created_at',
				order: 'asc',
			},
		]);

		const single = await run(
			{ resource: 'article', operation: 'get', articleId: '={{ $json.id }}', output: 'simple' },
			[{ id: ids[2] }],
		);
		const json = single.output('ContentGen')[0].json;
		expect(json.id).toBe(ids[2]);
		expect(json.content as string).toMatch(/^<[a-z]/i);

		const status = await run({ resource: 'article', operation: 'getStatus', articleId: ids[0] });
		expect(status.output('ContentGen')[0].json).toMatchObject({
			article_id: ids[0],
			status: 'needs_editing',
			is_complete: true,
		});
	});

	it('social content: getMany by platform, get split by platform with the images as binary', async () => {
		const [id] = sandbox.control.seedSocial(1, {
			status: 'completed',
			platforms: ['instagram', 'linkedin'],
		});
		sandbox.control.seedSocial(1, { status: 'completed', platforms: ['tiktok'] });

		const list = await run({
			resource: 'socialContent',
			operation: 'getMany',
			returnAll: true,
			filters: { platform: 'linkedin' },
		});
		const listed = list.output('ContentGen').map((item) => item.json);
		expect(listed.map((record) => record.id)).toContain(id);
		for (const record of listed) expect(record.platform_names).toContain('linkedin');

		const split = await run({
			resource: 'socialContent',
			operation: 'get',
			contentId: id,
			options: { splitByPlatform: true, downloadImages: true },
		});
		expect(split.error).toBeUndefined();
		const rows = split.output('ContentGen');
		expect(rows.map((row) => row.json.platform)).toEqual(['instagram', 'linkedin']);
		for (const row of rows) {
			expect(typeof row.json.caption).toBe('string');
			expect((row.json.caption as string).length).toBeGreaterThan(0);
			const image = row.binary?.image;
			expect(image?.mimeType).toBe('image/png');
			const bytes = await binaryBuffer(image);
			expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
		}
		const imageRequests = sandbox.control.requests().filter((r) => r.path.startsWith('/files/'));
		expect(imageRequests).toHaveLength(2);
	});

	it('publish now and scheduled on finished records; publishing again is refused; no credits spent', async () => {
		const [now, later] = sandbox.control.seedSocial(2, {
			status: 'completed',
			platforms: ['instagram', 'linkedin'],
		});
		const ledgerBefore = sandbox.control.ledger().length;
		const creditsBefore = sandbox.control.credits().available;

		const published = await run({
			resource: 'socialContent',
			operation: 'publish',
			contentId: now,
		});
		expect(published.error).toBeUndefined();
		expect(published.output('ContentGen')[0].json).toMatchObject({
			content_id: now,
			status: 'publishing',
			publish_mode: 'now',
		});

		const at = new Date(sandbox.control.now().getTime() + 86_400_000);
		at.setUTCMilliseconds(0);
		const scheduled = await run({
			resource: 'socialContent',
			operation: 'publish',
			contentId: later,
			additionalFields: { platforms: ['linkedin'], scheduledAt: at.toISOString() },
		});
		expect(scheduled.error).toBeUndefined();
		expect(scheduled.output('ContentGen')[0].json).toMatchObject({
			content_id: later,
			status: 'scheduled',
			publish_mode: 'scheduled',
		});
		const scheduledBody = sandbox.control
			.requests()
			.find(
				(r) => r.method === 'POST' && (r.body as { content_id?: string })?.content_id === later,
			)?.body;
		expect(scheduledBody).toEqual({
			content_id: later,
			platforms: ['linkedin'],
			scheduled_at: at.toISOString(),
		});

		const again = await run({ resource: 'socialContent', operation: 'publish', contentId: now });
		expect(again.error?.message).toBe(
			'The service refused to publish this social content again [item 0]',
		);
		expect(again.error?.description).toContain('This social content has already been published');

		expect(sandbox.control.ledger()).toHaveLength(ledgerBefore);
		expect(sandbox.control.credits().available).toBe(creditsBefore);
	});
});
