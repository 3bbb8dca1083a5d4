/// <reference lib="dom" />
// Publish's posting queue in the editor: Timing "Next Free Slot" reveals the posting times and the
// queue options, and a run says which slot the post got. Its screenshot is docs/images/queue-settings.png.
import {
	ACTION,
	openWorkflow,
	sandboxCredential,
	screenshot,
	serviceGet,
	signedIn,
	step,
} from './browser';
import {
	addCollectionOption,
	execute,
	labels,
	NDV,
	openNode,
	optionsOf,
	selectOption,
	tid,
	waitForLabels,
} from './ui';

const current = signedIn();
const NAME = 'Queue a post';

describe('posting queue', () => {
	step(
		'Timing "Next Free Slot" shows the queue settings, and the run names the slot',
		current,
		async (page, state) => {
			const [record] = await serviceGet<Array<{ id: string }>>(
				state,
				'/social/content?status=completed&limit=1',
			);
			const credentials = { contentGenApi: await sandboxCredential(page, state, 'Queue sandbox') };
			await openWorkflow(
				page,
				state,
				'Posting queue',
				[
					{
						name: NAME,
						type: ACTION,
						credentials,
						parameters: {
							resource: 'socialContent',
							operation: 'publish',
							contentId: { __rl: true, mode: 'id', value: record.id },
							postingTimes: {
								time: [
									{ weekday: 'monday', timeOfDay: '09:00' },
									{ weekday: 'wednesday', timeOfDay: '12:30' },
									{ weekday: 'friday', timeOfDay: '17:00' },
								],
							},
						},
					},
				],
				{},
				// Time Zone left empty: the queue uses the workflow's.
				{ timezone: 'Europe/Berlin' },
			);
			await openNode(page, `[data-node-name="${NAME}"]`);
			expect(await optionsOf(page, 'timing')).toEqual(['Next Free Slot', 'Now or at Scheduled At']);
			// The default timing hides the queue's settings.
			expect(await labels(page, tid('input-label', NDV))).not.toContain('Posting Times');
			await selectOption(page, 'timing', 'Next Free Slot');
			await waitForLabels(
				page,
				tid('input-label', NDV),
				(shown) => shown.includes('Posting Times') && shown.includes('Queue Options'),
			);
			await addCollectionOption(page, 'Queue Options', 'Posts per Slot');
			await addCollectionOption(page, 'Queue Options', 'Horizon (Days)');
			await screenshot(page, state, 'queue-settings', NDV, tid('node-parameters', NDV));
			const [row] = await execute(page);
			expect(row?.content_id).toBe(record.id);
			expect(row?.status).toBe('scheduled');
			expect(row?.publish_mode).toBe('queued');
			expect(row?.slot_check).toBe('kept');
			expect(String(row?.slot)).toMatch(/(Monday 09:00|Wednesday 12:30|Friday 17:00)/);
			expect(String(row?.slot)).toContain('Europe/Berlin');
		},
	);
});
