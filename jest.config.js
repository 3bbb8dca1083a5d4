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
	testTimeout: 60000,
};
