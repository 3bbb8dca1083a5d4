// The editor suite: the packed package in a real n8n, driven in headless Chromium. Its own jest
// project, outside `npm test`: `npm run test:editor` (global-setup.ts says what it needs). That
// script runs jest with --experimental-vm-modules: puppeteer-core is an ES module, which jest loads
// from CommonJS tests only then.
/** @type {import('jest').Config} */
module.exports = {
	displayName: 'editor',
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/editor'],
	testMatch: ['**/*.spec.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }],
	},
	globalSetup: '<rootDir>/test/editor/global-setup.ts',
	globalTeardown: '<rootDir>/test/editor/global-teardown.ts',
	setupFilesAfterEnv: ['<rootDir>/test/editor/retries.ts'],
	// One n8n and one browser at a time: the editor is slow to render on a small machine.
	maxWorkers: 1,
	testTimeout: 240000,
	verbose: true,
};
