/**
 * Jest setup of the integration tests (jest.config.js): every answer of the API is checked against the
 * OpenAPI document (./contract.ts); a test whose requests got an answer that does not match fails.
 */
import { installContractCheck, takeContractProblems } from './contract';

installContractCheck();

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
