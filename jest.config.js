// `npm test`: every file under test/ ending in .test.ts (the real-n8n and editor suites are jest
// projects of their own). Most files wait on loopback servers, timers and n8n's engine rather than
// on the CPU, so three workers share a 2-core machine: the whole run takes about two minutes instead
// of six one file after another. Not more: on a machine already busy, a fourth starved n8n's own
// 250 ms guard on a regular expression ("Regular expression execution timed out") and a nock
// error outlived its request. Each worker has its own n8n user folder (test/setup/env.ts), every
// server listens on a port the system picks, and the property tests run their quick count
// (test/helpers/runs.ts; CONTENTGEN_DEEP=1 runs the deep count, as CI does). Jest starts the files that took
// longest last time first, so a slow end-to-end file runs beside the others, not after them.
/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }],
	},
	globalSetup: '<rootDir>/test/setup/global-setup.ts',
	globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
	setupFiles: ['<rootDir>/test/setup/env.ts'],
	maxWorkers: 3,
	testTimeout: 60000,
};
