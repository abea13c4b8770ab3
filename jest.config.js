/**
 * Jest: five projects (unit, integration, browser, infra, durability). `npm test` runs them all;
 * `npm run test:fast` the two that need no stack (unit, infra).
 *
 * Files run in parallel (maxWorkers below), longest first (test/support/jest-sequencer.js), the
 * integration and browser files against one shared local cloud (the global setup) where each test works
 * in accounts of its own. The durability project runs after or before them in a phase of its own, one
 * file at a time (test/support/jest-serial-runner.js): it kills and restarts stacks and must not share
 * the machine. At the end the wall time and the slowest files are printed (jest-wall-time-reporter.js).
 */
const { availableParallelism } = require('node:os');

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
const sharedStack = {
  globalSetup: '<rootDir>/test/integration/harness/global-setup.ts',
  globalTeardown: '<rootDir>/test/integration/harness/global-teardown.ts',
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...common,
      ...sharedStack,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      // Every answer of the API is checked against the OpenAPI document (a mismatch fails the test).
      setupFilesAfterEnv: ['<rootDir>/test/integration/harness/contract-setup.ts'],
    },
    // The dashboard in headless Chromium (test/browser/harness.ts). The same global setup as integration:
    // Jest runs each global setup module once per run, so with both projects they share one local cloud.
    { ...common, ...sharedStack, displayName: 'browser', testMatch: ['<rootDir>/test/browser/**/*.test.ts'] },
    { ...common, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
    // Stacks of their own on disk, killed and restarted (test/durability/kill.test.ts): alone on the machine.
    { ...common, displayName: 'durability', testMatch: ['<rootDir>/test/durability/**/*.test.ts'], runner: '<rootDir>/test/support/jest-serial-runner.js' },
  ],
  // One file per core, up to six (beyond that the shared stack's one API thread is the limit). On 2 cores
  // three files at once used to keep both busy; since SES publishes an event per recipient, the shared
  // stack's pipelines then fell behind (webhooks not attempted for 40 s and more, in 2 of 6 whole runs)
  // for no gain: 2 at once ran the whole suite in 11:34, all passed, against 11:14-12:09 with failures at 3.
  // `--maxWorkers=N` on the command line overrides it.
  maxWorkers: Math.max(2, Math.min(6, availableParallelism())),
  testSequencer: '<rootDir>/test/support/jest-sequencer.js',
  reporters: ['default', '<rootDir>/test/support/jest-wall-time-reporter.js'],
  testTimeout: 60000,
};
