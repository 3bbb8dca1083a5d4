import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';
import { CONTENT_ID, envelope } from './fixtures';
import { setupNock, withoutStrayRequests } from '../helpers/nock';
import { api, CONTENT_ID_2, expectRejected } from './socialTools';

describe('social content publish through the engine', () => {
	setupNock();

	it('publish now sends only content_id and keeps the status the service reported', async () => {
		const scope = api()
			.post('/api/v1/social/publish', { content_id: CONTENT_ID })
			.reply(202, envelope({ content_id: CONTENT_ID, status: 'publishing', profiles: 2 }));
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'socialContent',
				operation: 'publish',
				contentId: CONTENT_ID,
			}),
		);
		expect(result.error).toBeUndefined();
		const [item] = result.output('ContentGen');
		expect(item.json).toEqual({
			content_id: CONTENT_ID,
			status: 'publishing',
			profiles: 2,
			publish_mode: 'now',
			status_note: expect.stringContaining('not a record status'),
		});
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(scope.isDone()).toBe(true);
	});

	it('schedule sends the platform subset and the time in UTC, read in the workflow time zone', async () => {
		const scope = api()
			.post('/api/v1/social/publish', {
				content_id: CONTENT_ID,
				platforms: ['linkedin', 'instagram'],
				scheduled_at: '2026-12-01T08:00:00.000Z',
			})
			.reply(
				200,
				envelope({
					content_id: CONTENT_ID,
					status: 'scheduled',
					scheduled_at: '2026-12-01T08:00:00Z',
				}),
			)
			.post('/api/v1/social/publish', {
				content_id: CONTENT_ID,
				scheduled_at: '2026-12-01T07:30:00.000Z',
			})
			.reply(
				200,
				envelope({
					content_id: CONTENT_ID,
					status: 'scheduled',
					scheduled_at: '2026-12-01T07:30:00Z',
				}),
			);
		const workflow = singleNodeWorkflow({
			resource: 'socialContent',
			operation: 'publish',
			contentId: CONTENT_ID,
			additionalFields: { platforms: ['linkedin', 'instagram'], scheduledAt: '={{ $json.at }}' },
		});
		workflow.settings = { timezone: 'Europe/Athens' };
		const first = await runWorkflow(workflow, { input: [{ at: '2026-12-01T10:00:00' }] });
		expect(first.error).toBeUndefined();
		expect(first.output('ContentGen')[0].json).toMatchObject({
			status: 'scheduled',
			publish_mode: 'scheduled',
			status_note: 'Scheduled: the service will post at 2026-12-01T08:00:00Z.',
		});
		const explicitOffset = singleNodeWorkflow({
			resource: 'socialContent',
			operation: 'publish',
			contentId: CONTENT_ID,
			additionalFields: { scheduledAt: '2026-12-01T09:30:00+02:00' },
		});
		expect((await runWorkflow(explicitOffset)).error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});

	it.each([
		[409, 'CONFLICT', 'The service refused to publish this social content again [item 0]'],
		[412, 'PRECONDITION_FAILED', 'The social content cannot be published yet [item 0]'],
	])('a %i explains the publish precondition', async (status, code, message) => {
		api()
			.post('/api/v1/social/publish')
			.reply(status, {
				success: false,
				error: { code, message: 'no' },
				meta: { request_id: 'req_p' },
			});
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'socialContent',
				operation: 'publish',
				contentId: CONTENT_ID,
			}),
		);
		expect(result.error?.message).toBe(message);
		expect(result.error?.description).toContain('req_p');
	});

	it('a 500 on publish is not sent again', async () => {
		const scope = api()
			.post('/api/v1/social/publish')
			.once()
			.reply(500, { success: false, error: { code: 'INTERNAL', message: 'x' } });
		await withoutStrayRequests(async () => {
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'socialContent',
					operation: 'publish',
					contentId: CONTENT_ID,
				}),
			);
			expect(result.error?.message).toBe(
				'The service could not handle the request (HTTP 500) [item 0]',
			);
			expect(scope.isDone()).toBe(true);
		});
	});

	it('publishes one record per input item via an expression', async () => {
		const ids = [CONTENT_ID, CONTENT_ID_2, 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee'];
		const scope = api();
		for (const id of ids) {
			scope
				.post('/api/v1/social/publish', { content_id: id })
				.reply(202, envelope({ content_id: id, status: 'publishing', profiles: 1 }));
		}
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'socialContent',
				operation: 'publish',
				contentId: '={{ $json.id }}',
			}),
			{ input: ids.map((id) => ({ id })) },
		);
		expect(
			result.output('ContentGen').map((item) => [item.json.content_id, item.pairedItem]),
		).toEqual(ids.map((id, item) => [id, { item }]));
		expect(scope.isDone()).toBe(true);
	});

	it('rejects bad input with zero requests', async () => {
		await expectRejected({ operation: 'publish', contentId: 'x' }, 'Content ID');
		await expectRejected(
			{
				operation: 'publish',
				contentId: CONTENT_ID,
				additionalFields: { platforms: ['instagram', 'myspace'] },
			},
			'Platforms',
		);
		await expectRejected(
			{
				operation: 'publish',
				contentId: CONTENT_ID,
				additionalFields: { scheduledAt: '={{ "next tuesday" }}' },
			},
			'Scheduled At',
		);
	});
});
