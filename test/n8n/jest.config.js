// The real-n8n tests: the packed package inside installed n8n processes, one leg per file
// (npm run test:n8n: single + queue; test:n8n:1x: line1; test:n8n:suite: settings3).
// Not part of `npm test`: they install n8n once into ~/.cache and take minutes.
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/n8n'],
	testMatch: ['**/*.leg.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }],
	},
	// one n8n deployment at a time: the machine has two cores
	maxWorkers: 1,
	testTimeout: 15 * 60 * 1000,
	verbose: true,
};
