/**
 * A commit barrier in front of DynamoDB Local on disk.
 *
 * DynamoDB Local answers `TransactWriteItems` (and PartiQL `ExecuteTransaction`) before the
 * transaction's COMMIT has run: `SQLiteDBAccess.commitTransaction` puts the COMMIT job on its
 * single SQLite queue and returns without waiting for it (read from the bytecode of the
 * 2026-01-16 jar). A SIGKILL in that gap leaves a hot journal, and SQLite rolls the acknowledged
 * transaction back on the next start (measured: 4 of 6 kills right after an acknowledgement lost
 * it). Single-item writes run BEGIN..COMMIT inside one job that the answer waits for, so they are
 * safe.
 *
 * The barrier forwards every request unchanged; for a successful transaction it holds the answer
 * until a `ListTables` sent afterwards has returned. That request is a job on the same FIFO queue,
 * behind the COMMIT, so once it answers the transaction is committed. See
 * docs/local-cloud/dynamodb.md.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { sendUpstream, startProxyServer } from './dynamodb-upstream';

/** Operations DynamoDB Local acknowledges before their COMMIT has run. */
const COMMITTED_AFTER_ANSWER = new Set(['TransactWriteItems', 'ExecuteTransaction']);

export function needsCommitBarrier(target: string | undefined): boolean {
  const operation = (target ?? '').split('.').pop() ?? '';
  return COMMITTED_AFTER_ANSWER.has(operation);
}

export interface CommitBarrier {
  port: number;
  stop(): Promise<void>;
}

export interface CommitBarrierOptions {
  host: string;
  port: number;
  /** Read per request: the barrier takes its port before DynamoDB Local is started. */
  upstreamPort: () => number;
  /** Fault injection for tests: called when DynamoDB Local has answered a transaction, before the barrier. */
  onTransactionAnswered?: () => void;
}

/** Where DynamoDB Local listens now, with the barrier's keep-alive agent. */
type Upstream = () => { host: string; port: number; agent: http.Agent };

export function startCommitBarrier(options: CommitBarrierOptions): Promise<CommitBarrier> {
  return startProxyServer(options.host, options.port, (request, response, agent) =>
    forward(request, response, () => ({ host: options.host, port: options.upstreamPort(), agent }), options),
  );
}

/** Resolves once a request queued after the transaction's COMMIT has been answered. */
function barrier(request: IncomingMessage, upstream: Upstream): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const body = '{"Limit":1}';
    const headers: http.OutgoingHttpHeaders = {
      'content-type': 'application/x-amz-json-1.0',
      'content-length': Buffer.byteLength(body),
      'x-amz-target': 'DynamoDB_20120810.ListTables',
      // DynamoDB Local checks the shape of the credentials, not the signature.
      authorization: request.headers.authorization,
      'x-amz-date': request.headers['x-amz-date'],
    };
    const call = http.request({ ...upstream(), method: 'POST', path: '/', headers }, (answer) => {
      answer.resume();
      answer.on('end', () => (answer.statusCode === 200 ? resolve() : reject(new Error(`barrier answered ${answer.statusCode}`))));
      answer.on('error', reject);
    });
    call.on('error', reject);
    call.end(body);
  });
}

/** Forwards a request to DynamoDB Local unchanged; a successful transaction's answer waits for the barrier. */
function forward(request: IncomingMessage, response: ServerResponse, upstream: Upstream, options: CommitBarrierOptions): void {
  const holdForCommit = needsCommitBarrier(request.headers['x-amz-target'] as string | undefined);
  const call = http.request({ ...upstream(), method: request.method, path: request.url, headers: request.headers }, (answer) => {
    const status = answer.statusCode ?? 502;
    if (!holdForCommit || status !== 200) {
      response.writeHead(status, answer.headers);
      answer.pipe(response);
      return;
    }
    options.onTransactionAnswered?.();
    const chunks: Buffer[] = [];
    answer.on('data', (chunk: Buffer) => chunks.push(chunk));
    answer.on('error', (error) => response.destroy(error));
    answer.on('end', () => {
      barrier(request, upstream).then(
        () => {
          response.writeHead(status, answer.headers);
          response.end(Buffer.concat(chunks));
        },
        // Not known to be committed: the client sees a broken connection, never a 200.
        (error: Error) => response.destroy(error),
      );
    });
  });
  sendUpstream(request, response, call);
}
