/**
 * The local API gateway applies AWS's limits between API Gateway and a function
 * (localstack/cloud/lambda/lambda-limits.ts): a handler's result over Lambda's 6 MB synchronous payload is
 * API Gateway's `500 {"message":"Internal Server Error"}`; a handler slower than the integration
 * timeout is `503 {"message":"Service Unavailable"}`. Driven through the real gateway server with
 * handlers that answer what the test needs (the limits are the gateway's, not the product's).
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { createApiServer, type LocalPages } from '#localstack/cloud/api/api-server';
import type { ApiHandler } from '#localstack/cloud/lambda/lambda-http';
import { compileRoutes } from '#localstack/cloud/api/routes';
import {
  INTEGRATION_TIMEOUT_ENV,
  integrationTimeoutMs,
  LAMBDA_SYNC_RESPONSE_MAX_BYTES,
  lambdaResponsePayloadBytes,
} from '#localstack/cloud/lambda/lambda-limits';

const pages = {} as LocalPages;
let answer: () => Promise<APIGatewayProxyStructuredResultV2>;
const handler: ApiHandler = () => answer();
let server: Server;
let base: string;
const logs: string[] = [];

beforeAll(async () => {
  process.env[INTEGRATION_TIMEOUT_ENV] = '300';
  const gateway = {
    routes: compileRoutes([
      { routeKey: 'ANY /received-emails', target: 'received-emails' },
      { routeKey: 'ANY /short', target: 'short' },
    ]),
    // `short`: a function whose own Timeout (0.1 s) ends before the integration's (300 ms here).
    apiRoutes: {},
    handlers: { 'received-emails': { handler, timeoutSeconds: 29 }, short: { handler, timeoutSeconds: 0.1 } },
  };
  server = createApiServer(gateway, pages, (line) => logs.push(line));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  delete process.env[INTEGRATION_TIMEOUT_ENV];
  await new Promise((resolve) => server.close(resolve));
});

/** A result whose JSON serialization is exactly `bytes` long, its body made of `fill` (one char, `unit` bytes in the JSON). */
function resultOfPayloadSize(bytes: number, fill: string, unit: number): APIGatewayProxyStructuredResultV2 {
  const shell: APIGatewayProxyStructuredResultV2 = { statusCode: 200, headers: { 'content-type': 'text/plain' }, body: '' };
  const room = bytes - lambdaResponsePayloadBytes(shell);
  const result = { ...shell, body: fill.repeat(Math.floor(room / unit)) + 'x'.repeat(room % unit) };
  expect(lambdaResponsePayloadBytes(result)).toBe(bytes);
  return result;
}

describe('local gateway: Lambda response payload limit (6 MB)', () => {
  it("passes a result of exactly 6,291,556 bytes (serialized) and refuses one byte more with API Gateway's 500", async () => {
    answer = async () => resultOfPayloadSize(LAMBDA_SYNC_RESPONSE_MAX_BYTES, 'a', 1);
    const ok = await fetch(`${base}/received-emails`);
    expect(ok.status).toBe(200);
    expect((await ok.text()).length).toBeGreaterThan(6_000_000);

    answer = async () => resultOfPayloadSize(LAMBDA_SYNC_RESPONSE_MAX_BYTES + 1, 'a', 1);
    const refused = await fetch(`${base}/received-emails`);
    expect(refused.status).toBe(500);
    expect(await refused.json()).toEqual({ message: 'Internal Server Error' });
    expect(logs.some((line) => line.includes('ResponseSizeTooLarge'))).toBe(true);
  });

  it('measures as Lambda does: a body of quotes counts twice (JSON-escaped), so 3.2 MB of them is over', async () => {
    const body = '"'.repeat(3_200_000);
    expect(Buffer.byteLength(body)).toBeLessThan(LAMBDA_SYNC_RESPONSE_MAX_BYTES);
    answer = async () => ({ statusCode: 200, headers: { 'content-type': 'text/plain' }, body });
    const refused = await fetch(`${base}/received-emails`);
    expect(refused.status).toBe(500);
    expect(await refused.json()).toEqual({ message: 'Internal Server Error' });
  });
});

describe('local gateway: HTTP API integration timeout (30 s, lowered here to 300 ms)', () => {
  it('answers 503 {"message":"Service Unavailable"} when the handler is slower than the timeout', async () => {
    answer = () => new Promise((resolve) => setTimeout(() => resolve({ statusCode: 200, body: 'late' }), 1_500).unref());
    const started = Date.now();
    const response = await fetch(`${base}/received-emails`);
    const waited = Date.now() - started;
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ message: 'Service Unavailable' });
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(1_400);
  });

  it('passes a handler that answers within the timeout', async () => {
    answer = () => new Promise((resolve) => setTimeout(() => resolve({ statusCode: 200, body: 'in time' }), 20));
    const response = await fetch(`${base}/received-emails`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('in time');
  });

  it("a function past its own Timeout fails first: API Gateway's 500, and Lambda's line in the log", async () => {
    answer = () => new Promise((resolve) => setTimeout(() => resolve({ statusCode: 200, body: 'late' }), 1_500).unref());
    const response = await fetch(`${base}/short`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ message: 'Internal Server Error' });
    expect(logs.some((line) => /^short: \S+ \S+ Task timed out after 0\.\d\d seconds$/.test(line))).toBe(true);
  });

  it("a handler that throws is a Lambda error: API Gateway's bare 500, not the gateway's own envelope", async () => {
    answer = async () => {
      throw new Error('handler bug');
    };
    const response = await fetch(`${base}/received-emails`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ message: 'Internal Server Error' });
    expect(logs.some((line) => line.includes('handler bug'))).toBe(true);
  });

  it("defaults to AWS's 30 s and refuses a setting above it", () => {
    expect(integrationTimeoutMs({})).toBe(30_000);
    expect(integrationTimeoutMs({ [INTEGRATION_TIMEOUT_ENV]: '5000' })).toBe(5_000);
    expect(() => integrationTimeoutMs({ [INTEGRATION_TIMEOUT_ENV]: '30001' })).toThrow(/1 to 30000/);
  });
});
