/**
 * The adapters' HTTP door (shared/adapters/providers/http.ts) against a scripted local server: JSON bodies,
 * each status mapped to its ProviderError (auth, not_permitted, unavailable, rate_limited with the
 * wait from Retry-After, X-RateLimit-Reset or a retry-seconds body), timeouts, refused connections,
 * redirects not followed, accepted statuses, secrets scrubbed from messages. Also retry-after.ts and
 * base-urls.ts on their own.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderError } from '#shared/ports/provider-source';
import { joinUrl, providerBaseUrls } from '#shared/adapters/providers/base-urls';
import { ProviderHttp } from '#shared/adapters/providers/http';
import { retryAfterSeconds } from '#shared/adapters/providers/retry-after';
import { closedPortUrl, providerErrorOf } from './harness';

const SECRET = 'SG.super-secret-key-value';
let server: http.Server;
let origin: string;

type Script = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const reply =
  (status: number, body: string, headers: Record<string, string> = {}): Script =>
  (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
const nowSeconds = () => Math.floor(Date.now() / 1000);

const SCRIPTS: Record<string, Script> = {
  '/ok': reply(200, '{"a":1}', { 'content-type': 'application/json' }),
  '/empty': reply(200, ''),
  '/not-json': reply(200, '<html>hello</html>'),
  '/401': reply(401, '{"errors":[{"field":null,"message":"authorization required"}]}'),
  '/401-text': reply(401, 'Forbidden'),
  '/403': reply(403, '{"errors":[{"field":null,"message":"access forbidden"}]}'),
  '/404': reply(404, '{"message":"Domain not found: x.example"}'),
  '/422': reply(422, '{"ErrorCode":1101,"Message":"The TemplateId was not found."}'),
  '/500': reply(500, 'oops'),
  '/503': reply(503, 'Service Unavailable'),
  '/429-retry-after': reply(429, '', { 'retry-after': '30' }),
  '/429-retry-after-date': (_req, res) => reply(429, '', { 'retry-after': new Date(Date.now() + 90_000).toUTCString() })(_req, res),
  '/429-reset': (_req, res) =>
    reply(429, '{"errors":[{"field":null,"message":"too many requests"}]}', { 'x-ratelimit-reset': String(nowSeconds() + 200) })(_req, res),
  '/429-body': reply(429, '{"retry-seconds": 15}'),
  '/429-none': reply(429, '{"ErrorCode":429,"Message":"Rate limit exceeded"}'),
  '/429-huge': reply(429, '', { 'retry-after': '999999' }),
  '/429-zero': reply(429, '', { 'retry-after': '0' }),
  '/slow': () => undefined, // never answers
  '/echo-key': (req, res) => reply(400, JSON.stringify({ message: `bad key ${String(req.headers.authorization)}` }))(req, res),
  '/redirect': reply(302, '', { location: 'http://example.invalid/elsewhere' }),
};

beforeAll(async () => {
  server = http.createServer((req, res) => (SCRIPTS[new URL(req.url ?? '/', 'http://x').pathname] ?? reply(404, ''))(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const client = (timeoutMs?: number) =>
  new ProviderHttp({ provider: 'sendgrid', headers: { authorization: `Bearer ${SECRET}` }, secrets: [SECRET], timeoutMs });
const failure = async (path: string, options = {}) => (await providerErrorOf(() => client(500).get(`${origin}${path}`, options))).failure;

describe('answers', () => {
  test('a 2xx answers the parsed JSON (null for an empty body)', async () => {
    expect((await client().get(`${origin}/ok`)).body).toEqual({ a: 1 });
    expect((await client().get(`${origin}/empty`)).body).toBeNull();
  });

  test('a 2xx body that is not JSON is unavailable', async () => {
    expect((await failure('/not-json')).kind).toBe('unavailable');
  });

  test('an accepted status is answered, with its body', async () => {
    const res = await client().get(`${origin}/404`, { accept: [404] });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Domain not found: x.example' });
  });
});

describe('status mapping', () => {
  test('401 is auth, quoting the provider (JSON or plain text)', async () => {
    expect(await failure('/401')).toEqual({
      kind: 'auth',
      message: 'SendGrid rejected the API key (401 on GET /401): "authorization required"',
    });
    expect((await failure('/401-text')).message).toContain('"Forbidden"');
  });

  test('403 is not_permitted, or auth where the caller says a 403 means a bad key', async () => {
    expect((await failure('/403')).kind).toBe('not_permitted');
    expect((await failure('/403', { forbidden: 'auth' })).kind).toBe('auth');
  });

  test('404 and other 4xx are not_permitted', async () => {
    expect((await failure('/404')).kind).toBe('not_permitted');
    const other = await failure('/422');
    expect(other.kind).toBe('not_permitted');
    expect(other.message).toContain('The TemplateId was not found.');
  });

  test('5xx is unavailable', async () => {
    expect((await failure('/500')).kind).toBe('unavailable');
    expect((await failure('/503')).kind).toBe('unavailable');
  });

  test('429 is rate_limited, the wait read from Retry-After (seconds or date), X-RateLimit-Reset, retry-seconds, else 60; within 1..3600', async () => {
    const wait = async (path: string) => {
      const f = await failure(path);
      if (f.kind !== 'rate_limited') throw new Error(`expected rate_limited, got ${f.kind}`);
      return f.retryAfterSeconds;
    };
    expect(await wait('/429-retry-after')).toBe(30);
    expect(await wait('/429-retry-after-date')).toBeGreaterThanOrEqual(88);
    expect(await wait('/429-retry-after-date')).toBeLessThanOrEqual(90);
    expect(await wait('/429-reset')).toBeGreaterThanOrEqual(199);
    expect(await wait('/429-reset')).toBeLessThanOrEqual(200);
    expect(await wait('/429-body')).toBe(15);
    expect(await wait('/429-none')).toBe(60);
    expect(await wait('/429-huge')).toBe(3600);
    expect(await wait('/429-zero')).toBe(1);
  });
});

describe('network', () => {
  test('no answer within the timeout is unavailable', async () => {
    const started = Date.now();
    const f = (await providerErrorOf(() => client(200).get(`${origin}/slow`))).failure;
    expect(f.kind).toBe('unavailable');
    expect(f.message).toContain('no answer within 0.2 s');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('a refused connection is unavailable', async () => {
    const closed = await closedPortUrl();
    const f = (await providerErrorOf(() => client().get(`${closed}/v3/scopes`))).failure;
    expect(f.kind).toBe('unavailable');
    expect(f.message).toContain('ECONNREFUSED');
  });

  test('a redirect is not followed (the key would go along): unavailable', async () => {
    expect((await failure('/redirect')).kind).toBe('unavailable');
  });
});

test('a provider echoing the key never gets it into a message', async () => {
  const err = await providerErrorOf(() => client().get(`${origin}/echo-key`));
  expect(err).toBeInstanceOf(ProviderError);
  expect(err.message).not.toContain(SECRET);
  expect(err.message).toContain('[redacted]');
});

describe('retryAfterSeconds', () => {
  const now = Date.UTC(2025, 0, 1);
  const h = (init: Record<string, string>) => new Headers(init);
  test('precedence: Retry-After, then X-RateLimit-Reset, then the body', () => {
    expect(retryAfterSeconds(h({ 'retry-after': '5', 'x-ratelimit-reset': String(now / 1000 + 100) }), { 'retry-seconds': 7 }, now)).toBe(
      5,
    );
    expect(retryAfterSeconds(h({ 'x-ratelimit-reset': String(now / 1000 + 100) }), { 'retry-seconds': 7 }, now)).toBe(100);
    expect(retryAfterSeconds(h({}), { 'retry-seconds': '7' }, now)).toBe(7);
  });
  test('a small X-RateLimit-Reset is seconds from now; a reset in the past waits 1 s; garbage falls back to 60', () => {
    expect(retryAfterSeconds(h({ 'x-ratelimit-reset': '12' }), null, now)).toBe(12);
    expect(retryAfterSeconds(h({ 'x-ratelimit-reset': String(now / 1000 - 50) }), null, now)).toBe(1);
    expect(retryAfterSeconds(h({ 'retry-after': 'soon', 'x-ratelimit-reset': 'later' }), 'text', now)).toBe(60);
  });
});

describe('base URLs', () => {
  test('real hosts by default; each overridable, empty values ignored, trailing slashes dropped', () => {
    expect(providerBaseUrls({})).toEqual({
      sendgrid: 'https://api.sendgrid.com',
      sendgridEu: 'https://api.eu.sendgrid.com',
      postmark: 'https://api.postmarkapp.com',
      mailgun: 'https://api.mailgun.net',
      mailgunEu: 'https://api.eu.mailgun.net',
    });
    const urls = providerBaseUrls({
      PROVIDER_SENDGRID_URL: 'http://127.0.0.1:4599/sendgrid/',
      PROVIDER_MAILGUN_EU_URL: '  ',
      PROVIDER_POSTMARK_URL: 'http://h/postmark',
    });
    expect(urls.sendgrid).toBe('http://127.0.0.1:4599/sendgrid');
    expect(urls.mailgunEu).toBe('https://api.eu.mailgun.net');
    expect(urls.postmark).toBe('http://h/postmark');
  });

  test('joinUrl keeps the base path prefix and encodes the query', () => {
    expect(joinUrl('http://h/sendgrid', '/v3/scopes')).toBe('http://h/sendgrid/v3/scopes');
    expect(joinUrl('http://h/sendgrid/', '/v3/templates', { generations: 'legacy,dynamic', page_size: 200, page_token: undefined })).toBe(
      'http://h/sendgrid/v3/templates?generations=legacy%2Cdynamic&page_size=200',
    );
  });
});
