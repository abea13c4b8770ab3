/** Jest: five projects (unit, integration, browser, infra, durability). `npm test` runs them all. */
const transform = {
  '^.+\\.(ts|js|mjs)$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
};
const common = {
  transform,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  // fauxqs is ESM-only with an import-only exports map: point Jest at its entry and let swc turn it into CJS.
  moduleNameMapper: { '^fauxqs$': '<rootDir>/node_modules/fauxqs/dist/app.js' },
  transformIgnorePatterns: ['/node_modules/(?!(fauxqs)/)'],
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/integration/harness/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/harness/global-teardown.ts',
      // Every answer of the API is checked against the OpenAPI document (a mismatch fails the test).
      setupFilesAfterEnv: ['<rootDir>/test/integration/harness/contract-setup.ts'],
    },
    // The dashboard in headless Chromium (test/browser/harness.ts). The same global setup as integration:
    // Jest runs each global setup module once per run, so with both projects they share one local cloud.
    {
      ...common,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.test.ts'],
      globalSetup: '<rootDir>/test/integration/harness/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/harness/global-teardown.ts',
    },
    { ...common, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
    // Stacks of their own on disk, killed and restarted (test/durability/kill.test.ts).
    { ...common, displayName: 'durability', testMatch: ['<rootDir>/test/durability/**/*.test.ts'] },
  ],
  testTimeout: 60000,
};
