/**
 * The provider emulator's HTTP front: one node:http server faking SendGrid, Postmark and Mailgun (started
 * by ./index.ts). Mounts:
 *   /sendgrid, /sendgrid-eu   SendGrid global and EU hosts
 *   /postmark                 Postmark
 *   /mailgun, /mailgun-eu     Mailgun US and EU hosts
 *   /_control/…               seeding, faults and request logs (./control/routes.ts)
 * An account lives on one region's mount: its key is unknown (the provider's 401) on the other. A request
 * on a mount is checked for its key (the provider's credential), for its account's faults (./faults.ts),
 * then answered by the provider's table (its routes.ts, ./route-match.ts) or the provider's 404.
 */
import http from 'node:http';
import { readBodyUpTo } from '../http-server';
import { controlErrorReply, ControlError } from './control/errors';
import { findControlRoute } from './control/routes';
import { faultReply } from './faults';
import { fakeMailgun } from './mailgun/provider';
import { fakePostmark } from './postmark/provider';
import { dispatch } from './route-match';
import { fakeSendgrid } from './sendgrid/provider';
import type { ProviderState } from './state';
import type { EmulatedProvider, EmulatedRegion, FakeProvider, Reply } from './types';

const MAX_CONTROL_BODY_BYTES = 64 * 1024 * 1024;

type Mount = { prefix: string; provider: EmulatedProvider; region: EmulatedRegion };
const MOUNTS: Mount[] = [
  { prefix: '/sendgrid', provider: 'sendgrid', region: 'us' },
  { prefix: '/sendgrid-eu', provider: 'sendgrid', region: 'eu' },
  { prefix: '/postmark', provider: 'postmark', region: 'us' },
  { prefix: '/mailgun', provider: 'mailgun', region: 'us' },
  { prefix: '/mailgun-eu', provider: 'mailgun', region: 'eu' },
];

const FAKES: Record<EmulatedProvider, FakeProvider<unknown>> = {
  sendgrid: fakeSendgrid as FakeProvider<unknown>,
  postmark: fakePostmark as FakeProvider<unknown>,
  mailgun: fakeMailgun as FakeProvider<unknown>,
};

/** The server over `state` (not listening yet): a request that throws is logged and answered 500. */
export function createProviderServer(state: ProviderState): http.Server {
  return http.createServer((req, res) => {
    handle(state, req, res).catch((err: unknown) => {
      state.log(
        `provider emulator: ${req.method ?? ''} ${(req.url ?? '').split('?')[0] ?? ''} failed: ${err instanceof Error ? err.stack : String(err)}`,
      );
      send(res, { status: 500, text: 'Internal error in the provider emulator.' }, false);
    });
  });
}

async function handle(state: ProviderState, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const method = req.method ?? 'GET';
  if (url.pathname === '/_control' || url.pathname.startsWith('/_control/')) {
    send(res, await answerControl(state, req, method, url), false);
    return;
  }
  req.resume();
  const mount = MOUNTS.find((m) => url.pathname === m.prefix || url.pathname.startsWith(`${m.prefix}/`));
  if (!mount) {
    send(res, { status: 404, text: 'Not Found' }, method === 'HEAD');
    return;
  }
  send(res, answerProvider(state, req, method, url, mount), method === 'HEAD');
}

/** A control API request: its JSON body read (400 when unreadable), then its route's operation (./control/routes.ts). */
async function answerControl(state: ProviderState, req: http.IncomingMessage, method: string, url: URL): Promise<Reply> {
  let body: unknown;
  if (method === 'PUT' || method === 'POST') body = await readJson(req);
  else req.resume();
  if (body instanceof Error) return { status: 400, json: { error: body.message } };
  try {
    const route = findControlRoute(method, url.pathname);
    if (!route) throw new ControlError(404, `No control route ${method} ${url.pathname}.`);
    return route.operation(state, { query: url.searchParams, body });
  } catch (err) {
    if (err instanceof ControlError) return controlErrorReply(err);
    throw err;
  }
}

/** A request on a provider's mount: its account (the provider's 401 when none), its faults, then the provider's table. */
function answerProvider(state: ProviderState, req: http.IncomingMessage, method: string, url: URL, mount: Mount): Reply {
  const fake = FAKES[mount.provider];
  const path = url.pathname.slice(mount.prefix.length) || '/';
  const nowMs = Date.now();
  const credential = fake.credential(path, req.headers);
  const account = credential.key === null ? undefined : state.accounts.find(mount.provider, credential.kind, credential.key, mount.region);
  let reply: Reply;
  if (!account || credential.key === null) reply = fake.unauthorized(credential);
  else {
    const origin = `http://${req.headers.host ?? url.host}`;
    const request = {
      method,
      path,
      query: url.searchParams,
      headers: req.headers,
      base: `${origin}${mount.prefix}`,
      key: credential.key,
      nowMs,
    };
    reply = faultReply(account, fake, path, nowMs) ?? dispatch(fake.routes, request, account.seed.data) ?? fake.notFound();
  }
  if (fake.decorate) reply = fake.decorate(reply, nowMs);
  account?.record({ method, path: `${path}${url.search}`, status: reply.status, region: mount.region });
  return reply;
}

function send(res: http.ServerResponse, reply: Reply, headOnly: boolean): void {
  if (res.headersSent) return;
  const payload = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? '');
  const type = reply.json !== undefined ? 'application/json' : 'text/plain; charset=utf-8';
  const headers: Record<string, string | number> = { ...reply.headers };
  if (reply.status !== 204) {
    headers['content-type'] = type;
    headers['content-length'] = Buffer.byteLength(payload);
  }
  res.writeHead(reply.status, headers);
  res.end(headOnly || reply.status === 204 ? undefined : payload);
}

/** The JSON body, or an Error saying why it cannot be read (too large, not JSON). */
async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const { body, tooLarge } = await readBodyUpTo(req, MAX_CONTROL_BODY_BYTES);
  if (tooLarge) return new Error(`Body larger than ${MAX_CONTROL_BODY_BYTES} bytes.`);
  const text = body.toString('utf8');
  try {
    return text.trim() === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return new Error('Body is not valid JSON.');
  }
}
