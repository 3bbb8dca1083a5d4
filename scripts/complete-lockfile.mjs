// The registry lacks some platform builds that packages list as optional dependencies
// (e.g. @unrs/resolver-binding-android-arm64). `npm install` skips them silently but leaves them
// out of package-lock.json, and `npm ci` then refuses the lock as out of sync. This adds an entry
// for each missing optional build, restricted to its platform, so `npm ci` skips it here too.
// Run after any `npm install` that rewrites the lock: node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const OS = [
	'android',
	'darwin',
	'freebsd',
	'linux',
	'openharmony',
	'win32',
	'netbsd',
	'openbsd',
	'sunos',
	'aix',
];
const CPU = ['arm', 'arm64', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x'];

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
let added = 0;
for (const [key, entry] of Object.entries(lock.packages)) {
	for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
		const base = key ? `${key}/node_modules/${name}` : `node_modules/${name}`;
		if (lock.packages[base] || lock.packages[`node_modules/${name}`]) continue;
		const parts = name.split('/').pop().split('-');
		// Names read <package>-<os>-<cpu>[-<abi>], e.g. resolver-binding-linux-arm64-gnu.
		const osIndex = parts.findIndex((part) => OS.includes(part));
		const os = parts[osIndex];
		const cpu = parts[osIndex + 1];
		if (osIndex < 0 || !CPU.includes(cpu)) {
			console.warn(`left out ${name}: no platform in its name`);
			continue;
		}
		lock.packages[`node_modules/${name}`] = {
			version: version.replace(/^[\^~]/, ''),
			cpu: [cpu],
			dev: entry.dev ?? undefined,
			license: 'MIT',
			optional: true,
			os: [os],
		};
		added++;
	}
}
writeFileSync(path, `${JSON.stringify(lock, null, '\t')}\n`);
console.log(`added ${added} platform-only optional entries`);
