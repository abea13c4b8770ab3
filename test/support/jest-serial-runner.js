/**
 * Jest's own runner, run serially: a project with `runner: '<rootDir>/test/support/jest-serial-runner.js'`
 * runs its files one after another, in a phase of their own (Jest runs one runner's files after
 * another's), so nothing else loads the machine or the shared stack meanwhile. For the kill test
 * (timing under SIGKILL and restarts) and for files that move the shared stack's clock.
 */
const TestRunner = require('jest-runner').default;

class SerialRunner extends TestRunner {
  constructor(...args) {
    super(...args);
    this.isSerial = true;
  }
}

module.exports = SerialRunner;
