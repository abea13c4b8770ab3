/**
 * A process serving many requests at once (the SMTP relay's task, every function of the local cloud) makes
 * many DynamoDB calls at once. The SDK's default pool is 50 sockets and its 3 s connectionTimeout counts
 * the wait for one, so the 51st call of a busy moment failed as "did not establish a connection" and its
 * send answered 503 (issue 47: 200 sends raced at a plan's cap). The clients' pool
 * (shared/adapters/aws/request-handler.ts) takes 200 calls at once: a server holding every request
 * unanswered receives all 200, and each is answered once the server lets them go.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamoClient } from '#shared/adapters/aws/dynamo-client';
import { loadConfig } from '#shared/config/config';

const CALLS = 200;

describe("the AWS clients' socket pool", () => {
  let server: Server;
  let endpoint = '';
  const held: ServerResponse[] = [];
  let allArrived: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (allArrived = resolve));
  // The server checks no signature; the SDK needs some credentials to sign with.
  const saved = { AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY };

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        held.push(res);
        if (held.length === CALLS) allArrived();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' });
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it(`holds ${CALLS} DynamoDB calls open at once: none waits for a socket, none fails as unreachable`, async () => {
    const base = loadConfig({ ...process.env, AWS_REGION: 'us-east-1' });
    const client = createDynamoClient({ ...base, endpoints: { ...base.endpoints, dynamodb: endpoint } });
    const calls = Array.from({ length: CALLS }, (_, i) => client.send(new GetCommand({ TableName: 't', Key: { PK: `k${i}`, SK: 'x' } })));
    // Settles with the first call's failure (the old pool: the 51st call's connection timeout after 3 s), or once all arrived.
    const firstFailure = Promise.race(calls.map((call) => call.then(() => new Promise<never>(() => undefined))));
    await Promise.race([arrived, firstFailure]);
    expect(held).toHaveLength(CALLS);
    for (const res of held) {
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end('{}');
    }
    expect((await Promise.all(calls)).every((answer) => answer.Item === undefined)).toBe(true);
    client.destroy();
  }, 30_000);
});
