/**
 * DynamoDB Local's JVM is started on a port found free; another process may bind it before Java does (a
 * whole suite's stacks start together). Then Java fails to bind, and the start tries another port instead
 * of failing the stack (it failed imports-chain.test.ts's stack once in a whole run).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { startDynamoDbLocal } from '#localstack/cloud/dynamodb/dynamodb';
import { freePort } from '#localstack/cloud/stack/free-port';

jest.setTimeout(90_000);

let taken: Server;
const sockets = new Set<Socket>();
let takenPort: number;

beforeAll(async () => {
  // It never answers: the start's look at the port must give up on it (bounded requests), not wait forever.
  taken = createServer((socket) => sockets.add(socket));
  // Java binds 0.0.0.0 (DynamoDB Local has no host option): the port is taken on every address.
  await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
  takenPort = (taken.address() as { port: number }).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => taken.close(() => resolve()));
});

it('a port taken between the look and the bind: Java starts again on another one', async () => {
  const picked: number[] = [];
  const pick = async (host: string) => {
    const port = picked.length === 0 ? takenPort : await freePort(host);
    picked.push(port);
    return port;
  };
  const dynamo = await startDynamoDbLocal({ freePort: pick });
  try {
    expect(picked).toHaveLength(2);
    expect(picked[0]).toBe(takenPort);
    expect(dynamo.port).toBe(picked[1]);
    const answer = await fetch(dynamo.endpoint, {
      method: 'POST',
      headers: {
        'x-amz-target': 'DynamoDB_20120810.ListTables',
        'content-type': 'application/x-amz-json-1.0',
        authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x',
      },
      body: '{}',
    });
    expect(answer.status).toBe(200);
  } finally {
    await dynamo.stop();
  }
});

it('a port the caller chose and cannot have fails the start, saying why', async () => {
  await expect(startDynamoDbLocal({ port: takenPort })).rejects.toThrow(/Failed to bind to .*:\d+/);
});
