/**
 * Jest's global setup (jest.config.js). Jest requires a global setup outside its module registry, where its
 * moduleNameMapper (the path aliases: "#shared/..." is shared/...) does not reach, so tsx compiles
 * global-setup.ts and what it imports here, resolving the aliases from tsconfig.json as tsc and esbuild do.
 * Scoped (a namespace): nothing else this process requires goes through tsx.
 */
const { register } = require('tsx/cjs/api');

const tsx = register({ namespace: 'jest-global-setup' });

module.exports = async function globalSetup(...args) {
  return tsx.require('./global-setup.ts', __filename).default(...args);
};
