/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals -- a release check that runs in Node: prints and sets the exit code */
/**
 * Runs before `n8n-node release` and `n8n-node prerelease` (package.json's `release` and
 * `prepublishOnly`): refuses while npm's page would lack the repository, the issue tracker or a
 * real author, or would show a README link or picture that leads nowhere, or while n8n's
 * documentation links would (harness/release.ts says what is checked).
 */
import { cloneOrigin, releaseInput, releaseProblems } from '../harness/release';

const problems = releaseProblems(releaseInput(cloneOrigin()));
if (problems.length > 0) {
	console.error(
		`Not released: ${problems.length} thing(s) to fix first\n- ${problems.join('\n- ')}`,
	);
	process.exit(1);
}
console.log('release check passed: package.json, README links and images, documentation links');
