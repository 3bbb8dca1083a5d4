/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test: the service double answers after a delay */
/**
 * Generates go several at once (Options > Parallel Requests): never more charged requests in
 * flight than the option, none started after a failure without Continue On Fail, and the error
 * naming every item whose generate was sent.
 */
import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';
import { articleGenerate, articleResponse, nthId, recordedApi } from './generateTools';
import { setupNock } from '../helpers/nock';

const generate = articleGenerate;

setupNock();

describe('several at once', () => {
	/**
	 * Ten generates, item 2 answered with a 500 and item 3 with a 502 (both may have been charged);
	 * every arrival and the moment item 2's failure is answered are recorded, with the number in
	 * flight. At 3 at a time, items 0 to 2 go first; items 0 and 1 are answered after 200 and
	 * 250 ms, so items 3 and 4 start then, 450 ms before item 2's failure at 700 ms (room for a busy
	 * machine running other test files at once), and are answered after it (item n: 600 + 100 n ms).
	 */
	function tenGenerates() {
		const arrivals: Array<{ item: number; at: number }> = [];
		let inFlight = 0;
		let peak = 0;
		let failedAt = Infinity;
		recordedApi()
			.scope.post('/api/v1/articles/generate')
			.times(10)
			.reply((_uri, body, callback) => {
				const item = Number(
					String((body as IDataObject).topic)
						.split(' ')
						.pop(),
				);
				arrivals.push({ item, at: performance.now() });
				peak = Math.max(peak, ++inFlight);
				setTimeout(
					() => {
						inFlight--;
						if (item === 2) failedAt = performance.now();
						const failure = (status: number) => [
							status,
							{ success: false, error: { code: 'INTERNAL', message: 'Server error' } },
						];
						if (item === 2) callback(null, failure(500) as [number, IDataObject]);
						else if (item === 3) callback(null, failure(502) as [number, IDataObject]);
						else callback(null, [202, { success: true, data: articleResponse(nthId(item)) }]);
					},
					item < 2 ? 200 + 50 * item : item === 2 ? 700 : 600 + 100 * item,
				);
			});
		const run = (parameters: IDataObject, continueOnFail = false) =>
			runWorkflow(
				singleNodeWorkflow(generate({ topic: '={{ $json.topic }}', ...parameters }), {
					continueOnFail,
				}),
				{ input: Array.from({ length: 10 }, (_x, n) => ({ topic: `Article number ${n}` })) },
			);
		return { arrivals, peak: () => peak, failedAt: () => failedAt, run };
	}

	it('a failing generate stops further generates; the error names every item already sent, with its id or as maybe charged', async () => {
		// A first answer loads what its handling needs, which on a busy machine holds the event loop
		// for longer than the margins below: one generate takes that first.
		recordedApi()
			.scope.post('/api/v1/articles/generate')
			.reply(202, { success: true, data: articleResponse(nthId(0)) });
		await runWorkflow(singleNodeWorkflow(generate({ topic: 'Warm-up' })));
		const { arrivals, peak, failedAt, run } = tenGenerates();
		const result = await run({ options: { parallelRequests: 3 } });
		const sent = arrivals.map((a) => a.item).sort((a, b) => a - b);
		// sent several at once, never more than 3, and none after item 2's failure was answered
		expect(peak()).toBeGreaterThan(1);
		expect(peak()).toBeLessThanOrEqual(3);
		expect(sent.slice(0, 4)).toEqual([0, 1, 2, 3]);
		expect(sent.every((item) => item <= 4)).toBe(true);
		expect(arrivals.every((a) => a.at < failedAt())).toBe(true);
		// the error of the lowest failing item, naming every other item sent
		expect(result.error?.message).toBe(
			'The service could not handle the request (HTTP 500) [item 2]',
		);
		const named = sent
			.filter((item) => item !== 2)
			.map((item) =>
				item === 3
					? 'item 3: sent, no article_id came back (it may have been charged)'
					: `item ${item}: article_id ${nthId(item)} (queued)`,
			);
		expect(result.error?.description).toContain(
			`Generations already submitted (and charged) in this run, keep these ids: ${named.join('; ')}.`,
		);
	});

	it('under Continue On Fail every item is sent, 3 at a time, and output in input order', async () => {
		const { arrivals, peak, run } = tenGenerates();
		const result = await run({ options: { parallelRequests: 3 } }, true);
		expect(arrivals).toHaveLength(10);
		expect(peak()).toBeLessThanOrEqual(3);
		const items = result.output('ContentGen');
		expect(items.map((item) => item.json.article_id ?? item.json.httpCode)).toEqual(
			Array.from({ length: 10 }, (_x, n) => (n === 2 ? '500' : n === 3 ? '502' : nthId(n))),
		);
		expect(items.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 10 }, (_x, item) => ({ item })),
		);
	});

	it('without the option the node sends all ten at once', async () => {
		const { run, peak } = tenGenerates();
		await run({});
		// ten go before the budget is known
		expect(peak()).toBe(10);
	});
});
