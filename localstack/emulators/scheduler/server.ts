/**
 * HTTP front of the emulator: each request routed (./routes.ts) to its operation with its decoded path
 * parameters, query and JSON body (./request.ts); answered with the operation's JSON and an
 * `x-amzn-requestid`, once a mutating operation's change is persisted, or with the AWS REST-JSON error
 * (./errors.ts). Authentication is not checked. Every request gets an answer; unknown routes get a 404
 * UnknownOperationException at once.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { errorResponse, SchedulerError } from './errors';
import { decodeParams, readJson } from './request';
import { findRoute } from './routes';
import type { SchedulerState } from './state';

export function createSchedulerServer(state: SchedulerState): http.Server {
  return http.createServer((req, res) => {
    handle(req, res, state).catch((err: unknown) => {
      state.log(`scheduler: request ${req.method ?? ''} ${req.url ?? ''} failed: ${err instanceof Error ? err.stack : String(err)}`);
      sendError(res, new SchedulerError('InternalServerException', 'Internal error in the local scheduler emulator.'));
    });
  });
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, state: SchedulerState): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = req.method ?? 'GET';
  const found = findRoute(method, url.pathname);
  if (!found) {
    req.resume();
    sendError(
      res,
      new SchedulerError('UnknownOperationException', `No operation ${method} ${url.pathname} in the local scheduler emulator.`),
    );
    return;
  }
  try {
    const params = decodeParams(found.captures);
    const body = await readJson(req);
    const output = found.route.operation(state, { params, query: url.searchParams, body });
    if (found.route.mutates) await state.store.persist();
    sendJson(res, 200, output);
  } catch (err) {
    if (err instanceof SchedulerError) sendError(res, err);
    else throw err;
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': randomUUID(),
    ...extraHeaders,
  });
  res.end(text);
}

function sendError(res: http.ServerResponse, err: SchedulerError): void {
  const { status, headers, body } = errorResponse(err);
  sendJson(res, status, body, headers);
}
