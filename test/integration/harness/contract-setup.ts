/**
 * Jest setup of the integration tests (jest.config.js): every answer of the API is checked against the
 * OpenAPI document (./contract.ts); a test whose requests got an answer that does not match fails.
 */
import { contractChecker } from '../../support/contract-validators';
import { installContractCheck, takeContractProblems } from './contract';

installContractCheck();
// The checker's validators loaded before the file's tests: Jest 30 refuses a module's first `require` made from a
// concurrent test ("outside of the scope of the test code"), and a file's first answer may come in one.
beforeAll(() => {
  contractChecker();
});

function failOnMismatch(): void {
  const problems = takeContractProblems();
  if (problems.length > 0) {
    throw new Error(
      `${problems.length} answer${problems.length === 1 ? '' : 's'} of the API did not match the OpenAPI document (shared/doors/openapi; docs/openapi.json):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    );
  }
}

afterEach(failOnMismatch);
afterAll(failOnMismatch);
