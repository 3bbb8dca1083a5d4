/**
 * The sandbox the example workflows run against (seed 11, fast), started once per test file, and
 * the credential for it.
 */
import { startSandbox, type Sandbox } from '../../sandbox';

export interface ExampleSandbox {
	sandbox: Sandbox;
	credentials: { apiKey: string; baseUrl: string };
	/** What the sandbox charged or refunded after the first `count` entries of its ledger. */
	ledgerSince(count: number): ReturnType<Sandbox['control']['ledger']>;
}

export function exampleSandbox(): ExampleSandbox {
	const world = {
		ledgerSince: (count: number) => world.sandbox.control.ledger().slice(count),
	} as ExampleSandbox;
	beforeAll(async () => {
		world.sandbox = await startSandbox({ port: 0, speed: 5000, seed: 11 });
		world.credentials = { apiKey: world.sandbox.apiKey, baseUrl: world.sandbox.url };
	});
	afterAll(async () => {
		await world.sandbox.close();
	});
	return world;
}
