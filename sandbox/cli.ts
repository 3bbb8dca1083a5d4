/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals -- dev-only command line entry point: reads argv, prints to the terminal, handles signals */
import { startSandbox } from './index';

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

async function main(): Promise<void> {
	if (process.argv.includes('--help')) {
		console.log(
			'Usage: npm run sandbox -- [--port 8787] [--host 127.0.0.1] [--speed 30] [--seed N] [--quiet]\n' +
				'Serves the whole content generation API locally under /api/v1.',
		);
		return;
	}
	const seedRaw = arg('seed');
	const sandbox = await startSandbox({
		port: num('port', 8787),
		host: arg('host') ?? '127.0.0.1',
		speed: num('speed', 30),
		seed: seedRaw === undefined ? undefined : num('seed', 0),
		quiet: process.argv.includes('--quiet'),
	});
	console.log(`Content generation sandbox listening on ${sandbox.url}`);
	console.log(`Base URL:       ${sandbox.url}`);
	console.log(`API key:        ${sandbox.apiKey}`);
	console.log(`Session cookie: ${sandbox.sessionCookie}`);
	console.log(`Try:            curl -s -H "Authorization: Bearer ${sandbox.apiKey}" ${sandbox.url}/api/v1/user/credits`);
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
