/** Unit, emulator and workflow tests run in-process; test/e2e runs real n8n and has its own script. */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.cts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	setupFiles: ['<rootDir>/test/harness/setup-env.cts'],
	moduleFileExtensions: ['js', 'mjs', 'cjs', 'jsx', 'ts', 'tsx', 'cts', 'json', 'node'],
	transform: { '^.+\\.c?ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json', diagnostics: false }] },
	testTimeout: 120000,
	maxWorkers: 2,
};
