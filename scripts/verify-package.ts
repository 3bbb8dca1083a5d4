/* eslint-disable no-console, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- a release check that runs in Node and calls npm */
/**
 * Checks what would be published: the tarball holds the compiled nodes and credential in dist
 * (no copy of package.json, no build state), README, LICENSE, CHANGELOG and package.json (the
 * README's pictures stay in the repository, where npm's page takes them from), and
 * n8n's verification scanner passes on the source and on the packed JavaScript (its scanner
 * ignores inline eslint-disable comments).
 */
import { execFileSync } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';

const root = resolve(__dirname, '..');
const scannerPath = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs', {
	paths: [root],
});

interface ScanResult {
	passed: boolean;
	message?: string;
	details?: string;
}

async function main(): Promise<void> {
	const scanner = (await import(scannerPath)) as {
		analyzePackage(dir: string, patterns: string[]): Promise<ScanResult>;
		SOURCE_FILE_PATTERNS: string[];
	};
	const failures: string[] = [];

	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json'], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}),
	) as Array<{ files: Array<{ path: string }> }>;
	const files = packed[0].files.map((file) => file.path);
	const topLevel = ['README.md', 'LICENSE', 'CHANGELOG.md', 'package.json'];
	const unexpected = files.filter(
		(path) =>
			!topLevel.includes(path) &&
			!(/^dist\/(nodes|credentials)\//.test(path) && !/\.tsbuildinfo$/.test(path)),
	);
	console.log(`tarball: ${files.length} files`);
	if (unexpected.length > 0)
		failures.push(`unexpected files in the tarball: ${unexpected.join(', ')}`);
	for (const required of [...topLevel, 'dist/nodes/ContentGen/ContentGen.node.js']) {
		if (!files.includes(required)) failures.push(`missing from the tarball: ${required}`);
	}

	const source = await scanner.analyzePackage(root, scanner.SOURCE_FILE_PATTERNS);
	console.log(`scanner on the source: ${source.passed ? 'passed' : 'FAILED'}`);
	if (!source.passed) failures.push(`scanner (source): ${source.message}\n${source.details ?? ''}`);

	const workDir = mkdtempSync(join(tmpdir(), 'contentgen-pack-'));
	try {
		execFileSync('npm', ['pack', '--pack-destination', workDir], {
			cwd: root,
			stdio: ['ignore', 'ignore', 'ignore'],
		});
		execFileSync('sh', ['-c', `tar -xzf ${workDir}/*.tgz -C ${workDir}`]);
		const tarball = await scanner.analyzePackage(join(workDir, 'package'), [
			'**/*.js',
			'package.json',
		]);
		console.log(`scanner on the packed tarball: ${tarball.passed ? 'passed' : 'FAILED'}`);
		if (!tarball.passed)
			failures.push(`scanner (tarball): ${tarball.message}\n${tarball.details ?? ''}`);
	} finally {
		rmSync(workDir, { recursive: true, force: true });
	}

	if (failures.length > 0) {
		console.error(failures.join('\n'));
		process.exit(1);
	}
	console.log('package verification passed');
}

void main();
