// Two jest projects under test/ (the real-n8n and editor suites have configurations of their own):
// - behaviour (`npm test`): what the nodes do, from unit tests to workflows against the sandbox;
// - repository (`npm run test:repo`): the repository's own rules, its docs as a reader uses them,
//   and the sandbox (the one fake of the service) against the spec.
// `npx jest <path>` runs a file of either. Most files wait on loopback servers, timers and n8n's
// engine rather than on the CPU, so three workers share a 2-core machine. Not more: on a machine
// already busy, a fourth starved n8n's own 250 ms guard on a regular expression (its limit is now a
// patient one in tests: test/setup/regex.ts) and a nock error outlived its request. Each worker has
// its own n8n user folder (test/setup/env.ts), every server listens on a port the system picks, and
// the property tests run their quick count (test/helpers/runs.ts; CONTENTGEN_DEEP=1 runs the deep
// count, as CI does). Jest starts the files that took longest last time first.
const REPOSITORY = ['guard', 'docs', 'sandbox'];
const BEHAVIOUR = ['node', 'transport', 'credential', 'trigger', 'e2e', 'suites', 'compat'];

const project = (displayName, folders) => ({
	displayName,
	testEnvironment: 'node',
	roots: folders.map((folder) => `<rootDir>/test/${folder}`),
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }],
	},
	globalSetup: '<rootDir>/test/setup/global-setup.ts',
	globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
	setupFiles: ['<rootDir>/test/setup/env.ts', '<rootDir>/test/setup/regex.ts'],
});

/** @type {import('jest').Config} */
module.exports = {
	projects: [project('behaviour', BEHAVIOUR), project('repository', REPOSITORY)],
	maxWorkers: 3,
	testTimeout: 60000,
};
