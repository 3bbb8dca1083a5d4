/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-require-imports, @n8n/community-nodes/no-restricted-imports -- dev-only benchmark: loads another build's tracker by path and prints a table */
/**
 * What the trigger remembers at 3,000, 10,000 and 20,000 records of each kind, every event
 * selected: an account of finished articles and of social content mostly published (one in 20
 * still completed, followed for the publish events), polled until it has learnt the account. For
 * each size: the stored state (bytes), the requests of an idle poll, and then whether the move of
 * the article changed longest ago (archived to cms) and of a followed social record are reported,
 * with that poll's requests.
 *
 *   npx tsx bench/trigger-capacity.ts [TREE]
 *
 * TREE: another checkout (with node_modules linked) whose tracker is measured beside this one's,
 * in the same run: `git archive main | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/`.
 */
import { resolve } from 'path';

import { EVENT_NAMES } from '../nodes/ContentGenTrigger/events';
import type { runPoll as RunPoll } from '../nodes/ContentGenTrigger/tracker';
import { prng, World } from '../harness/trigger/world';

const DAY = 86_400_000;
const SIZES = [3000, 10_000, 20_000];

interface Row {
	records: number;
	bytes: number;
	idle: number;
	oldestMove: boolean;
	socialMove: boolean;
	moveRequests: number;
}

async function measure(runPoll: typeof RunPoll, records: number): Promise<Row> {
	const world = new World(prng(11), { socialOrder: 'id' });
	const since = world.now - 40 * DAY;
	const step = (40 * DAY) / (2 * records);
	const articles: string[] = [];
	const completed: string[] = [];
	for (let i = 0; i < records; i++)
		articles.push(
			world.create('article', ['archived', 'cms', 'needs_editing'][i % 3], {
				created: since + i * step,
			}),
		);
	for (let i = 0; i < records; i++) {
		const status = i % 20 === 19 ? 'completed' : i % 20 > 15 ? 'failed' : 'published';
		const id = world.create('social', status, { created: since + (records + i) * step });
		if (status === 'completed') completed.push(id);
	}
	let stored: unknown = {};
	const poll = async () => {
		world.tick(60_000);
		const before = world.log.length;
		const outcome = await runPoll(
			stored,
			{ events: EVENT_NAMES, scope: 'all', now: world.now },
			(r) => world.answer(r),
		);
		stored = JSON.parse(JSON.stringify(outcome.state));
		return { outcome, requests: world.log.length - before };
	};
	// Learning: 5 article pages a poll, 30 social pages a poll.
	for (let i = 0; i < Math.ceil(records / 500) + 6; i++) await poll();
	const idle = (await poll()).requests;
	const bytes = Buffer.byteLength(JSON.stringify(stored));
	world.set('article', articles[0], 'cms');
	world.set('social', completed[0], 'scheduled');
	const { outcome, requests } = await poll();
	const ids = outcome.items.map((item) => item.record.id);
	return {
		records,
		bytes,
		idle,
		oldestMove: ids.includes(articles[0]),
		socialMove: ids.includes(completed[0]),
		moveRequests: requests,
	};
}

async function table(label: string, runPoll: typeof RunPoll): Promise<void> {
	console.log(`\n${label}`);
	console.log(
		'| records of each kind | state (bytes) | requests, idle poll | oldest article moved: reported | followed social record moved: reported | requests of that poll |',
	);
	console.log('|---|---|---|---|---|---|');
	for (const records of SIZES) {
		const r = await measure(runPoll, records);
		console.log(
			`| ${records.toLocaleString('en-US')} | ${r.bytes.toLocaleString('en-US')} | ${r.idle} | ${r.oldestMove ? 'yes' : 'no'} | ${r.socialMove ? 'yes' : 'no'} | ${r.moveRequests} |`,
		);
	}
}

async function main(): Promise<void> {
	const here = require('../nodes/ContentGenTrigger/tracker') as { runPoll: typeof RunPoll };
	const other = process.argv[2];
	if (other) {
		const old = require(`${resolve(other)}/nodes/ContentGenTrigger/tracker`) as {
			runPoll: typeof RunPoll;
		};
		await table(`the tracker of ${other}`, old.runPoll);
	}
	await table('this build', here.runPoll);
}

void main();
