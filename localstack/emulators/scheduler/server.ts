/**
 * HTTP front of the emulator: the Scheduler REST-JSON routes (as the SDK's operation schemas define
 * them), request decoding, JSON responses and AWS-format errors. Authentication is not checked.
 * Every request gets an answer; unknown routes get a 404 UnknownOperationException at once.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { SchedulerError, validation } from './errors';
import type { SchedulerOperations } from './operations';
import type { SchedulerStore } from './store';
import { isObject, type JsonObject } from './validation';

const MAX_BODY_BYTES = 1024 * 1024;

interface RequestContext {
  params: string[];
  query: URLSearchParams;
  body: JsonObject;
}

interface Route {
  method: string;
  path: RegExp;
  /** Mutating operations answer only once the change is persisted. */
  mutates: boolean;
  handle: (ops: SchedulerOperations, ctx: RequestContext) => JsonObject;
}

const p = (ctx: RequestContext): string => ctx.params[0] as string;

const ROUTES: Route[] = [
  { method: 'GET', path: /^\/schedules$/, mutates: false, handle: (ops, c) => ops.listSchedules(c.query) },
  { method: 'POST', path: /^\/schedules\/([^/]+)$/, mutates: true, handle: (ops, c) => ops.createSchedule(p(c), c.body) },
  { method: 'GET', path: /^\/schedules\/([^/]+)$/, mutates: false, handle: (ops, c) => ops.getSchedule(p(c), c.query.get('groupName')) },
  { method: 'PUT', path: /^\/schedules\/([^/]+)$/, mutates: true, handle: (ops, c) => ops.updateSchedule(p(c), c.body) },
  {
    method: 'DELETE',
    path: /^\/schedules\/([^/]+)$/,
    mutates: true,
    handle: (ops, c) => ops.deleteSchedule(p(c), c.query.get('groupName')),
  },
  { method: 'GET', path: /^\/schedule-groups$/, mutates: false, handle: (ops, c) => ops.listScheduleGroups(c.query) },
  { method: 'POST', path: /^\/schedule-groups\/([^/]+)$/, mutates: true, handle: (ops, c) => ops.createScheduleGroup(p(c), c.body) },
  { method: 'GET', path: /^\/schedule-groups\/([^/]+)$/, mutates: false, handle: (ops, c) => ops.getScheduleGroup(p(c)) },
  { method: 'DELETE', path: /^\/schedule-groups\/([^/]+)$/, mutates: true, handle: (ops, c) => ops.deleteScheduleGroup(p(c)) },
  { method: 'GET', path: /^\/tags\/(.+)$/, mutates: false, handle: (ops, c) => ops.listTagsForResource(p(c)) },
  { method: 'POST', path: /^\/tags\/(.+)$/, mutates: true, handle: (ops, c) => ops.tagResource(p(c), c.body) },
  { method: 'DELETE', path: /^\/tags\/(.+)$/, mutates: true, handle: (ops, c) => ops.untagResource(p(c), c.query) },
];

export function createSchedulerServer(ops: SchedulerOperations, store: SchedulerStore, log: (msg: string) => void): http.Server {
  return http.createServer((req, res) => {
    handle(req, res, ops, store).catch((err: unknown) => {
      log(`scheduler: request ${req.method ?? ''} ${req.url ?? ''} failed: ${err instanceof Error ? err.stack : String(err)}`);
      sendError(res, new SchedulerError('InternalServerException', 'Internal error in the local scheduler emulator.'));
    });
  });
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, ops: SchedulerOperations, store: SchedulerStore): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = req.method ?? 'GET';
  let route: Route | undefined;
  let match: RegExpExecArray | null = null;
  for (const r of ROUTES) {
    if (r.method !== method) continue;
    match = r.path.exec(url.pathname);
    if (match) {
      route = r;
      break;
    }
  }
  if (!route || !match) {
    req.resume();
    sendError(
      res,
      new SchedulerError('UnknownOperationException', `No operation ${method} ${url.pathname} in the local scheduler emulator.`),
    );
    return;
  }
  try {
    const params = match.slice(1).map((raw) => {
      try {
        return decodeURIComponent(raw);
      } catch {
        throw validation(`Malformed path parameter ${raw}.`);
      }
    });
    const body = await readJson(req);
    const output = route.handle(ops, { params, query: url.searchParams, body });
    if (route.mutates) await store.persist();
    sendJson(res, 200, output);
  } catch (err) {
    if (err instanceof SchedulerError) sendError(res, err);
    else throw err;
  }
}

function readJson(req: http.IncomingMessage): Promise<JsonObject> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (tooLarge) return reject(validation(`Request body larger than ${MAX_BODY_BYTES} bytes.`));
      const text = Buffer.concat(chunks).toString('utf8').trim();
      if (text === '') return resolve({});
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return reject(validation('Request body is not valid JSON.'));
      }
      if (!isObject(parsed)) return reject(validation('Request body must be a JSON object.'));
      resolve(parsed);
    });
  });
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
  sendJson(res, err.status, { Message: err.message }, { 'x-amzn-errortype': err.errorName });
}
