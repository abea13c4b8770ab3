/**
 * The HTTP front of the SES emulator: each request routed (./routes.ts) to an SES operation or a local
 * route, and answered: an operation's JSON with an `x-amzn-requestid`, once the changes it made are on
 * disk (every method but GET: an answered change must survive a crash), its after-response work (SendEmail's
 * events) started once the answer is sent; an error in SESv2's REST-JSON shape (./errors.ts), a body over
 * the limit 413 MessageRejected, and a prompt error for everything else (never a hanging request).
 */
import * as http from 'node:http';
import { SesError, errorResponse } from './errors';
import { requestId } from './ids';
import { BodyTooLarge, pathSegments, readBody, readJson, type SesRequest } from './request';
import { findRoute } from './routes';
import type { SesState } from './state';
import type { OperationResult } from './types';

function send(res: http.ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

/** Starts an operation's after-response work once the answer is on its way; a failure is logged. */
function afterResponse(state: SesState, result: OperationResult): void {
  const after = result.afterResponse;
  if (!after) return;
  setImmediate(() => {
    try {
      after();
    } catch (err) {
      state.log(`after-response work failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
}

async function handle(state: SesState, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const rid = requestId();
  const method = (req.method ?? 'GET').toUpperCase();
  try {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const found = findRoute(method, pathSegments(url.pathname));
    if (!found) {
      throw new SesError('UnknownOperationException', `${method} ${url.pathname} is not an operation supported by the local SES emulator.`);
    }
    const request: SesRequest = {
      params: found.params,
      query: url.searchParams,
      requestId: rid,
      json: () => readJson(req),
      form: async () => new URLSearchParams((await readBody(req)).toString('utf8')),
    };
    const { route } = found;
    if ('local' in route) {
      const reply = await route.local(state, request);
      send(res, reply.status, reply.headers, reply.body);
      return;
    }
    const result = await route.operation(state, request);
    // SendEmail awaited its own message; configuration sets, identities and tenants are awaited here.
    if (method !== 'GET') await state.store.settingsDurable();
    send(res, 200, { 'content-type': 'application/json', 'x-amzn-requestid': rid }, JSON.stringify(result.body));
    afterResponse(state, result);
  } catch (err) {
    if (err instanceof BodyTooLarge) {
      res.setHeader('connection', 'close');
      const e = errorResponse(new SesError('MessageRejected', 'Request body too large (the message limit is 40 MB).'), rid);
      send(res, 413, e.headers, e.body);
      return;
    }
    if (!(err instanceof SesError))
      state.log(`internal error on ${method} ${req.url ?? ''}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    const e = errorResponse(err, rid);
    send(res, e.status, e.headers, e.body);
  }
}

export function createSesServer(state: SesState): http.Server {
  const server = http.createServer((req, res) => {
    handle(state, req, res).catch((err: unknown) => {
      state.log(`request handling failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) {
        res.writeHead(500);
        res.end();
      }
    });
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  return server;
}
