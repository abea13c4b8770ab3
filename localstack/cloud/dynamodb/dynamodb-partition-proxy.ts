/**
 * A stack's door to a DynamoDB Local another process runs (LOCAL_DYNAMODB_ENDPOINT, ./dynamodb.ts
 * `useRunningDynamoDbLocal`): it forwards every request as it came, but signed with the stack's own access key
 * (`partitionKeyOf`). DynamoDB Local started without `-sharedDb` keeps a database for each access key and region
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/DynamoDBLocal.UsageNotes.html), so each stack
 * has a database of its own in the one JVM; with `-sharedDb` they share one, as before.
 *
 * Why a database of its own: DynamoDB Local answers every request after reading its table's stream description,
 * which asks SQLite for the first record of the table's stream (`MIN(SequenceNumber) ... WHERE StreamID = ?` over
 * one table of every stream's records, walked in sequence order), and keeps a deleted table's stream records. In
 * one database, each request of a stack walked the records of every stack before it: a GetItem took 34 ms
 * instead of 12.5 once another table had 50,000 (2026-11-29, a busy 2-core machine); in databases of their own,
 * 1.1 ms and unchanged.
 *
 * DynamoDB Local checks the shape of the credentials, not the signature, so only the Credential's access key is
 * replaced.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { sendUpstream, startProxyServer } from './dynamodb-upstream';

export interface PartitionProxy {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

/** The access key a stack signs with (letters and digits: DynamoDB Local names a database after it). */
export function partitionKeyOf(stackName: string): string {
  return stackName.replace(/[^A-Za-z0-9]/g, '');
}

/** The Authorization header with its Credential's access key replaced by `key` (unchanged when it has none). */
export function withAccessKey(authorization: string | undefined, key: string): string | undefined {
  return authorization?.replace(/Credential=[^/,\s]*\//, `Credential=${key}/`);
}

export async function startPartitionProxy(options: { host: string; upstream: URL; accessKey: string }): Promise<PartitionProxy> {
  const server = await startProxyServer(options.host, 0, (request, response, agent) => forward(request, response, options, agent));
  return { endpoint: `http://${options.host}:${server.port}`, port: server.port, stop: server.stop };
}

function forward(
  request: IncomingMessage,
  response: ServerResponse,
  options: { upstream: URL; accessKey: string },
  agent: http.Agent,
): void {
  const authorization = withAccessKey(request.headers.authorization, options.accessKey);
  const headers = { ...request.headers, host: options.upstream.host, ...(authorization ? { authorization } : {}) };
  const target = {
    host: options.upstream.hostname,
    port: Number(options.upstream.port),
    agent,
    method: request.method,
    path: request.url,
    headers,
  };
  const call = http.request(target, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(response);
  });
  sendUpstream(request, response, call);
}
