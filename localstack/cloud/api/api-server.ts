/**
 * The local API Gateway: one HTTP server routing every API group's Lambda as the HTTP API would, plus
 * local-only pages (/health, the SES mailbox). Nothing here exists in the AWS deployment.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import {
  MAX_BODY_BYTES,
  PayloadTooLarge,
  toApiGatewayEvent,
  writeLambdaResult,
  type ApiHandler,
  type EventDomain,
} from '../lambda/lambda-http';
import { matchRoute, type RouteTarget } from './routes';
import { invokeWithinLimits } from '../lambda/lambda-limits';
import { invokeWithinTimeout } from '../lambda/lambda-timeout';
import { clockState, resetClock, setClock } from '../stack/local-clock';
import { functionsNow } from '../dynamodb/dynamodb-ttl-sweep';
import { MessageQueryError, parseMessageQuery, type MessageQuery } from '../../emulators/ses';

export interface LocalPages {
  /** `components` up or down; any other fields (queue backlogs, scheduled tasks' reports) are shown as they are. */
  health(): Promise<{ ok: boolean; components: Record<string, string> } & Record<string, unknown>>;
  /** The local mailbox, filtered (`GET /_local/ses/messages?email_id=...`; docs/local-cloud/ses.md). */
  sesMessages(query: MessageQuery): unknown[];
  sesIdentities(): unknown[];
  sesMailboxHtml(): string;
  /** The local S3's lifecycle sweep run at `now` on keys starting with `within` (`POST /_local/s3/lifecycle-sweep`; docs/local-cloud/s3.md). */
  s3LifecycleSweep(now: Date, within?: string): { expired: string[]; aborted: string[] };
  /** The local DynamoDB's TTL deletions, at the functions' clock or at `now` (`POST /_local/ttl/sweep`; ../dynamodb/dynamodb-ttl-sweep.ts). */
  ttlSweep(now?: Date): Promise<{ deleted: Record<string, number>; now: string }>;
  /** A scheduled task's pass now and its status after it (`POST /_local/tasks/<name>/run`); null: no such task. */
  runTask(name: string): Promise<unknown | null>;
  webhookInbox: { list(path?: string): unknown[]; clear(path?: string): number };
  /**
   * The DNS emulator's control API (`/_local/dns/records`, the questions asked at `GET /_local/dns/queries?name=`;
   * docs/local-cloud/dns.md): its answer, or undefined when the method and path are not the API's.
   */
  dns(
    method: string,
    pathname: string,
    request: { query: URLSearchParams; json(): Promise<unknown> },
  ): Promise<{ status: number; body: unknown } | undefined>;
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The path as the route matcher takes it: a segment that is not valid percent-encoding (`%FF`) is kept
 * as it is, as Hono keeps it, instead of failing the match (the function then answers for it, a 404).
 */
function matchablePath(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => {
      try {
        decodeURIComponent(segment);
        return segment;
      } catch {
        return segment.replace(/%/g, '%25');
      }
    })
    .join('/');
}

/** Local only: `Server-Timing: handler;dur=<ms>`, the time from the start of routing to now (the benchmarks' in-stack latency). */
function setServerTiming(res: ServerResponse, started: bigint): void {
  if (!res.headersSent) res.setHeader('Server-Timing', `handler;dur=${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)}`);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** Bodies drained (read and dropped) after a 413 so the connection stays usable; beyond this it is closed. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * 413 for a body over the limit. The rest of the body is read and dropped before answering, so a
 * keep-alive client gets the answer and can reuse the connection (its next request is not parsed from
 * the middle of this body); a body beyond DRAIN_LIMIT_BYTES is cut off and the connection closed.
 */
function refuseTooLarge(req: IncomingMessage, res: ServerResponse, started: bigint): void {
  const answer = (close: boolean) => {
    if (res.headersSent) return;
    if (close) res.setHeader('Connection', 'close');
    setServerTiming(res, started);
    sendJson(res, 413, {
      error: {
        message: `Request body larger than ${MAX_BODY_BYTES / 1024 / 1024} MB (a Lambda's payload limit). Upload large files with POST /attachments and reference them by attachment_id.`,
        code: 'payload_too_large',
        details: { limit_bytes: MAX_BODY_BYTES },
      },
    });
    if (close) res.once('finish', () => req.socket.destroySoon());
  };
  if (req.readableEnded) {
    answer(false);
    return;
  }
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) {
      req.pause();
      answer(true);
    }
  });
  req.once('end', () => answer(false));
  req.once('error', () => answer(true));
  req.resume();
}

/**
 * A request Node's HTTP parser refuses (malformed request line or headers, headers over 16 KB) never
 * reaches a handler: answer it with the error envelope too (Node's default is an empty 400), then close.
 */
function refuseMalformed(error: NodeJS.ErrnoException, socket: Duplex, inFlight: ServerResponse | undefined): void {
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'payload_too_large', 'Request line and headers larger than 16 KB: send long values in the body.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'validation_error', 'The request was not received in time.']
        : [400, 'validation_error', `Malformed HTTP request (${error.code ?? 'parse error'}).`];
  const body = JSON.stringify({ error: { message, code } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * What the local API Gateway routes to, filled in once the template is deployed (the server listens
 * before: the functions' environment names its URL): the routes of the default endpoint (route key ->
 * function name: the APIs whose execute-api endpoint is on), each API's own routes (what a custom domain
 * name mapped to it serves: ./custom-domains-server.ts), and each function's handler with its timeout.
 */
export interface LocalGateway {
  routes: RouteTarget<string>[];
  apiRoutes: Record<string, RouteTarget<string>[]>;
  handlers: Record<string, { handler: ApiHandler; timeoutSeconds: number }>;
}

/**
 * Invokes the function of the route `routes` match for the request, as API Gateway's Lambda proxy
 * integration does (AWS's response-size and integration-timeout limits, ../lambda/lambda-limits.ts; the function's
 * own Timeout, ../lambda/lambda-timeout.ts); `notFound` answers when no route matches. 503 while the functions
 * are not loaded yet.
 */
export async function routeToFunction(
  gateway: LocalGateway,
  routes: RouteTarget<string>[],
  request: { req: IncomingMessage; res: ServerResponse; started: bigint; domain?: EventDomain },
  notFound: () => void,
  log: (message: string) => void,
): Promise<void> {
  const { req, res, started } = request;
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://local');
  const match = matchRoute(routes, method, matchablePath(url.pathname));
  const deployed = match ? gateway.handlers[match.target] : undefined;
  if (match && !deployed) {
    // The server listens before the functions load (their environment names its URL): still starting.
    setServerTiming(res, started);
    res.setHeader('Retry-After', '1');
    return sendJson(res, 503, { error: { message: 'The local cloud is still starting; retry in a moment.', code: 'service_unavailable' } });
  }
  if (!match || !deployed) {
    setServerTiming(res, started);
    return notFound();
  }
  const event = await toApiGatewayEvent(req, match.routeKey, match.pathParameters, request.domain);
  const fn = { name: match.target, timeoutSeconds: deployed.timeoutSeconds };
  const result = await invokeWithinLimits(() => invokeWithinTimeout(fn, (context) => deployed.handler(event, context), log), log);
  setServerTiming(res, started);
  writeLambdaResult(res, result);
}

/**
 * The request listener of a gateway's server (this one, the custom domains' HTTPS one): `handle` for each
 * request; a body over the payload limit 413 (the connection kept), any other failure a 500.
 */
export function gatewayListener(
  handle: (req: IncomingMessage, res: ServerResponse, started: bigint) => Promise<void>,
  log: (message: string) => void,
) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = process.hrtime.bigint();
    handle(req, res, started).catch((error: unknown) => {
      if (error instanceof PayloadTooLarge) return refuseTooLarge(req, res, started);
      log(`api: unhandled error: ${(error as Error).stack ?? String(error)}`);
      setServerTiming(res, started);
      if (!res.headersSent) sendJson(res, 500, { error: { message: 'Internal error in the local API gateway.', code: 'internal_error' } });
      else res.end();
    });
  };
}

/** A gateway's server settings: malformed requests answered, idle connections kept longer than clients' pools. */
export function configureGatewayServer<S extends Server | HttpsServer>(server: S): S {
  // The response a connection is answering now (a parse error of the next request on it must not write into it).
  const answering = new WeakMap<Duplex, ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => answering.set(req.socket, res));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const last = answering.get(socket);
    refuseMalformed(error, socket, last && !last.writableFinished ? last : undefined);
  });
  // Longer than clients' idle pools (many use 60 s), so the server never closes a connection a client is
  // about to reuse; headersTimeout must exceed keepAliveTimeout.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}

/** A request to the local pages, with what they read of it. */
interface PageRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  method: string;
}

/** sendJson for a page that answered: true (the request is not routed further). */
function answered(res: ServerResponse, status: number, body: unknown): true {
  sendJson(res, status, body);
  return true;
}

async function healthPage({ res, url, method }: PageRequest, pages: LocalPages): Promise<boolean> {
  if (!(method === 'GET' && url.pathname === '/health')) return false;
  const { ok, ...health } = await pages.health();
  return answered(res, ok ? 200 : 503, { status: ok ? 'ok' : 'starting', ...health });
}

function sesPages({ res, url, method }: PageRequest, pages: LocalPages): boolean {
  if (method === 'GET' && url.pathname === '/_local/ses/messages') {
    try {
      return answered(res, 200, { messages: pages.sesMessages(parseMessageQuery(url.searchParams)) });
    } catch (error) {
      if (!(error instanceof MessageQueryError)) throw error;
      return answered(res, 400, { error: { message: error.message, code: 'validation_error' } });
    }
  }
  if (method === 'GET' && url.pathname === '/_local/ses/identities') return answered(res, 200, { identities: pages.sesIdentities() });
  if (method === 'GET' && (url.pathname === '/_local/ses' || url.pathname === '/_local/ses/')) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(pages.sesMailboxHtml());
    return true;
  }
  return false;
}

function webhookInboxPage({ res, url, method }: PageRequest, pages: LocalPages): boolean {
  if (url.pathname === '/_local/webhooks') {
    // `?path=/hooks`: one endpoint's requests only (tests running in parallel each read and clear their own).
    const path = url.searchParams.get('path') ?? undefined;
    if (method === 'GET') return answered(res, 200, { requests: pages.webhookInbox.list(path) });
    if (method === 'DELETE') return answered(res, 200, { deleted: pages.webhookInbox.clear(path) });
  }
  return false;
}

async function sweepPages({ req, res, url, method }: PageRequest, pages: LocalPages): Promise<boolean> {
  if (method === 'POST' && url.pathname === '/_local/s3/lifecycle-sweep') {
    // `{"now": "<ISO>", "within": "<key prefix>"}` sweeps as if it were then (rules count in days), only
    // the keys under `within` when given (tests sharing one cloud); no body: a sweep now, as the hourly one.
    const body = ((await readJsonBody(req)) ?? {}) as { now?: unknown; within?: unknown };
    const now = body.now === undefined ? functionsNow() : new Date(typeof body.now === 'string' ? body.now : Number.NaN);
    if (Number.isNaN(now.getTime()) || (body.within !== undefined && typeof body.within !== 'string')) {
      return answered(res, 400, {
        error: { message: 'body must be {"now"?: "<ISO 8601 time>", "within"?: "<key prefix>"}', code: 'validation_error' },
      });
    }
    return answered(res, 200, pages.s3LifecycleSweep(now, body.within));
  }
  if (method === 'POST' && url.pathname === '/_local/ttl/sweep') {
    // `{"now": "<ISO>"}` deletes what has expired by then; no body: by the functions' clock (PUT /_local/clock).
    const body = ((await readJsonBody(req)) ?? {}) as { now?: unknown };
    const now = body.now === undefined ? undefined : new Date(typeof body.now === 'string' ? body.now : Number.NaN);
    if (now && Number.isNaN(now.getTime()))
      return answered(res, 400, { error: { message: 'body must be {"now"?: "<ISO 8601 time>"}', code: 'validation_error' } });
    return answered(res, 200, await pages.ttlSweep(now));
  }
  return false;
}

async function taskRunPage({ res, url, method }: PageRequest, pages: LocalPages): Promise<boolean> {
  const task = /^\/_local\/tasks\/([a-z0-9-]+)\/run$/.exec(url.pathname);
  if (!(method === 'POST' && task)) return false;
  // A pass of the scheduled task now (after the one running, if any), as its rule's next firing would run it;
  // the answer is the task's status after it: passes, last_report, totals (what /health shows).
  const status = await pages.runTask(task[1]!);
  if (status === null) return answered(res, 404, { error: { message: `no scheduled task named ${task[1]}`, code: 'not_found' } });
  return answered(res, 200, status);
}

async function clockPage({ req, res, url, method }: PageRequest): Promise<boolean> {
  if (url.pathname === '/_local/clock') {
    try {
      if (method === 'GET') return answered(res, 200, clockState());
      if (method === 'PUT') return answered(res, 200, setClock(await readJsonBody(req)));
      if (method === 'DELETE') return answered(res, 200, resetClock());
    } catch (error) {
      return answered(res, 400, { error: { message: (error as Error).message, code: 'validation_error' } });
    }
  }
  return false;
}

async function dnsPages({ req, res, url, method }: PageRequest, pages: LocalPages): Promise<boolean> {
  // The DNS emulator's control API, under /_local/dns/ (its table: ../../emulators/dns/routes.ts).
  if (!url.pathname.startsWith('/_local/dns/')) return false;
  const reply = await pages.dns(method, url.pathname, { query: url.searchParams, json: () => readJsonBody(req) });
  return reply ? answered(res, reply.status, reply.body) : false;
}

/** The local pages, in the order they are tried: each answers its own paths and methods, or passes (false). */
const LOCAL_PAGES: ((request: PageRequest, pages: LocalPages) => boolean | Promise<boolean>)[] = [
  healthPage,
  sesPages,
  webhookInboxPage,
  sweepPages,
  taskRunPage,
  clockPage,
  dnsPages,
];

/** True when a local page (/health, /_local/...) answered the request; false: it is the functions'. */
async function answerLocalPage(request: PageRequest, pages: LocalPages): Promise<boolean> {
  for (const page of LOCAL_PAGES) if (await page(request, pages)) return true;
  return false;
}

export function createApiServer(gateway: LocalGateway, pages: LocalPages, log: (message: string) => void): Server {
  async function handle(req: IncomingMessage, res: ServerResponse, started: bigint): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const method = req.method ?? 'GET';
    if (await answerLocalPage({ req, res, url, method }, pages)) return;
    if (gateway.routes.length === 0) {
      // Not deployed yet: no route is known (the template is deployed after the server listens).
      setServerTiming(res, started);
      res.setHeader('Retry-After', '1');
      return sendJson(res, 503, {
        error: { message: 'The local cloud is still starting; retry in a moment.', code: 'service_unavailable' },
      });
    }
    await routeToFunction(
      gateway,
      gateway.routes,
      { req, res, started },
      () => sendJson(res, 404, { error: { message: `Route ${method} ${url.pathname} was not found.`, code: 'not_found' } }),
      log,
    );
  }

  return configureGatewayServer(createServer(gatewayListener(handle, log)));
}
