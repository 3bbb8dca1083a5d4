/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals -- dev-only command line entry point: reads argv, prints to the terminal, handles signals */
import { randomBytes } from 'crypto';

import { seededKey, startSandbox } from './index';
import { defaultKeyFile, keptKey } from './keyfile';

function arg(name: string): string | undefined {
	const argv = process.argv.slice(2);
	const i = argv.indexOf(`--${name}`);
	if (i >= 0) return argv[i + 1];
	const inline = argv.find((a) => a.startsWith(`--${name}=`));
	return inline ? inline.slice(name.length + 3) : undefined;
}

function num(name: string, def: number): number {
	const raw = arg(name);
	if (raw === undefined) return def;
	const n = Number(raw);
	if (!Number.isFinite(n)) {
		console.error(`--${name} must be a number`);
		process.exit(2);
	}
	return n;
}

/** A delay in milliseconds: a number of 0 or more. */
function millis(name: string): number {
	const n = num(name, 0);
	if (n < 0) {
		console.error(`--${name} must be 0 or more milliseconds`);
		process.exit(2);
	}
	return n;
}

function seedArg(): number | undefined {
	const raw = arg('seed');
	if (raw === undefined) return undefined;
	const n = Number(raw);
	if (raw.trim() === '' || !Number.isInteger(n) || n < 0 || n > 0xffffffff) {
		console.error('--seed must be a whole number from 0 to 4294967295');
		process.exit(2);
	}
	return n;
}

async function main(): Promise<void> {
	if (process.argv.includes('--help')) {
		console.log(
			'Usage: npm run sandbox -- [--port 8787] [--host 127.0.0.1] [--speed 30] [--seed N]\n' +
				'                          [--keep-key | --key-file FILE] [--latency MS] [--jitter MS]\n' +
				'                          [--ids v7] [--quiet]\n' +
				'Serves the whole content generation API locally under /api/v1.\n' +
				'--host H       the address to listen on: 0.0.0.0 for n8n in Docker (http://host.docker.internal:8787)\n' +
				'--seed N       the same API key and the same data on every start\n' +
				'--latency MS   every answer waits MS milliseconds, as across a real network\n' +
				'--jitter MS    each answer waits up to MS more or less than --latency\n' +
				'--ids v7       time-ordered record ids (UUIDv7: a batch shares its millisecond), not v4\n' +
				`--keep-key     keep the first start's API key in ${defaultKeyFile()} and reuse it\n` +
				'--key-file F   the same, in the file F',
		);
		return;
	}
	const seed = seedArg();
	const keyFile =
		arg('key-file') ?? (process.argv.includes('--keep-key') ? defaultKeyFile() : undefined);
	let kept: { key: string; created: boolean } | undefined;
	if (keyFile !== undefined) {
		try {
			const fresh = seed === undefined ? `svc_${randomBytes(32).toString('hex')}` : seededKey(seed);
			kept = keptKey(keyFile, fresh);
		} catch (error) {
			console.error((error as Error).message);
			process.exit(2);
		}
	}
	const host = arg('host') ?? '127.0.0.1';
	const ids = arg('ids') ?? 'v4';
	if (ids !== 'v4' && ids !== 'v7') {
		console.error('--ids must be v4 or v7');
		process.exit(2);
	}
	const latencyMs = millis('latency');
	const jitterMs = millis('jitter');
	const sandbox = await startSandbox({
		port: num('port', 8787),
		host,
		speed: num('speed', 30),
		seed,
		apiKey: kept?.key,
		quiet: process.argv.includes('--quiet'),
		latencyMs,
		jitterMs,
		ids,
	});
	// Listening on every interface: this machine reaches it on loopback, n8n in Docker by the host.
	const everywhere = ['0.0.0.0', '::'].includes(host);
	const port = new URL(sandbox.url).port;
	const baseUrl = everywhere
		? `http://${host === '::' ? '[::1]' : '127.0.0.1'}:${port}`
		: sandbox.url;
	console.log(`Content generation sandbox listening on ${sandbox.url}`);
	console.log(`Base URL:       ${baseUrl}`);
	if (everywhere)
		console.log(
			`From Docker:    http://host.docker.internal:${port} (run n8n's container with --add-host=host.docker.internal:host-gateway; turn on "Allow Plain HTTP to a Private Address" in the credential)`,
		);
	if (everywhere && seed !== undefined && !kept)
		console.log(
			'Warning:        a seeded key can be worked out from the seed, and the sandbox is on the network: use --keep-key instead',
		);
	console.log(`API key:        ${sandbox.apiKey}`);
	console.log(`Session cookie: ${sandbox.sessionCookie}`);
	if (kept)
		console.log(
			`Key file:       ${keyFile} (${kept.created ? 'written now' : 'the same key as before'}; every start with it uses this key)`,
		);
	else if (seed !== undefined)
		console.log(`Seed:           ${seed} (the same key and the same data on every start with it)`);
	if (latencyMs > 0 || jitterMs > 0)
		console.log(
			`Latency:        ${latencyMs} ms${jitterMs > 0 ? ` ± ${jitterMs} ms` : ''} on every answer`,
		);
	console.log(
		`Try:            curl -s -H "Authorization: Bearer ${sandbox.apiKey}" ${baseUrl}/api/v1/user/credits`,
	);
	console.log('Press Ctrl-C to stop.');
	const stop = () => {
		sandbox.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((err: Error) => {
	console.error(err.stack ?? err.message);
	process.exit(1);
});
