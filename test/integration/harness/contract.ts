/**
 * The contract check of the integration tests: every answer of the local cloud's API that a test gets
 * (through fetch: `api()`, direct calls, the resend SDK, the generated client; and the dashboard's
 * requests, dashboardRequest) is checked against the OpenAPI document (test/support/openapi-contract.ts).
 * A mismatch fails the test that made the request (./contract-setup.ts), with what did not match.
 */
import { appendFileSync } from 'node:fs';
import { contractChecker } from '../../support/contract-validators';
import type { CheckedResponse } from '../../support/openapi-contract';
import { stack } from './stack';

const problems: string[] = [];
let checked = 0;

/** How many answers were checked in this test file (the wiring's own test reads it). */
export function checkedAnswers(): number {
  return checked;
}

/**
 * Checks one answer of the API: of the shared stack, or of a stack a test started of its own (the local
 * gateway marks every answer it routed with `Server-Timing: handler;dur=`). Other servers are ignored.
 */
export function checkApiResponse(method: string, url: string, response: CheckedResponse): void {
  let target: URL;
  try {
    target = new URL(url, stack().apiUrl);
  } catch {
    return;
  }
  const fromGateway = /^handler;dur=/.test(response.header('server-timing') ?? '');
  if (target.origin !== new URL(stack().apiUrl).origin && !fromGateway) return;
  checked++;
  problems.push(...contractChecker().check({ method, url: target.pathname + target.search }, response));
  // OPENAPI_CONTRACT_LOG=<file>: one line per checked answer (operation and status), to see what the suite covers.
  const log = process.env.OPENAPI_CONTRACT_LOG;
  if (log)
    appendFileSync(log, `${contractChecker().operationFor(method, target.pathname)?.operation.operationId ?? '-'} ${response.status}\n`);
}

/** The mismatches seen since the last call. */
export function takeContractProblems(): string[] {
  return problems.splice(0, problems.length);
}

let installed = false;

/** Wraps the global fetch: each answer from the API is checked (read from a clone: the caller's body is untouched). */
export function installContractCheck(): void {
  if (installed) return;
  installed = true;
  const original = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await original(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET');
    if (process.env.TEST_STACK_DATA_DIR && !url.startsWith('data:')) {
      const text = await response.clone().text();
      checkApiResponse(method, url, { status: response.status, header: (name) => response.headers.get(name), text });
    }
    return response;
  };
}
