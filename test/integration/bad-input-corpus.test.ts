/**
 * A corpus of malformed requests across every route: none may answer 5xx, and every refusal carries the
 * spec's error envelope. Keep adding cases here when a bad input is found to misbehave.
 */
import { api, newAccount, stack, type TestAccount } from './harness/stack';

interface Case {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

const LONG = 'x'.repeat(3000);
const SEND = { from: 'a@sandbox.mailservice.dev', to: 'owner@example.com', subject: 's', text: 't' };

function deep(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = { n: value };
  return value;
}

/** The JSON text of a `levels`-deep object (built as text: a deep object would overflow JSON.stringify). */
function deepJson(levels: number, inner = '"leaf"'): string {
  return '{"n":'.repeat(levels) + inner + '}'.repeat(levels);
}

const cursor = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');

function corpus(account: TestAccount): Case[] {
  const acc = account.id;
  const cases: Case[] = [];
  const add = (c: Case) => cases.push(c);
  // Long and odd ids on every {id} route.
  for (const id of [LONG, 'msg_' + LONG, '%00', 'msg_%0d%0a', '..', 'msg_01ZZZZZZZZZZZZZZZZZZZZZZZZ', "msg_'; DROP TABLE", '\u00e9\u00e9']) {
    const enc = encodeURIComponent(id);
    add({ name: `GET email ${id.slice(0, 10)}`, method: 'GET', path: `/emails/${enc}` });
    add({ name: `PATCH email ${id.slice(0, 10)}`, method: 'PATCH', path: `/emails/${enc}`, body: { cancel: true } });
    add({ name: `cancel email ${id.slice(0, 10)}`, method: 'POST', path: `/emails/${enc}/cancel` });
    add({ name: `resend email ${id.slice(0, 10)}`, method: 'POST', path: `/emails/${enc}/resend` });
    add({ name: `GET domain ${id.slice(0, 10)}`, method: 'GET', path: `/domains/${enc}` });
    add({ name: `verify domain ${id.slice(0, 10)}`, method: 'POST', path: `/domains/${enc}`, body: { action: 'verify' } });
    add({ name: `GET webhook ${id.slice(0, 10)}`, method: 'GET', path: `/webhooks/${enc}` });
    add({ name: `GET delivery ${id.slice(0, 10)}`, method: 'GET', path: `/webhooks/${enc}/deliveries/${enc}` });
    add({ name: `DELETE key ${id.slice(0, 10)}`, method: 'DELETE', path: `/api-keys/${enc}` });
    add({ name: `GET attachment ${id.slice(0, 10)}`, method: 'GET', path: `/attachments/${enc}` });
  }
  // Cursors: garbage, foreign, the caller's partition with missing or foreign other fields, on every list.
  const lists: [string, Record<string, string>][] = [
    ['/emails', { GSI1PK: `ACCOUNT#${acc}#EMAILS#0` }],
    ['/domains', { GSI1PK: `ACCOUNT#${acc}#DOMAINS` }],
    ['/webhooks', { GSI1PK: `ACCOUNT#${acc}#WEBHOOKS` }],
    ['/suppressions', { GSI1PK: `ACCOUNT#${acc}#SUPPRESSIONS#0` }],
    ['/api-keys', { PK: `ACCOUNT#${acc}` }],
  ];
  for (const [path, partition] of lists) {
    for (const [label, key] of [
      ['partition only', partition],
      ['no sort key', { ...partition, PK: 'EMAIL#x' }],
      ['foreign SK', { PK: `ACCOUNT#${acc}`, SK: 'ACCOUNT', ...partition }],
      ['numbers', { ...partition, PK: 1, SK: 2 }],
      ['extra field', { PK: 'A', SK: 'B', GSI1SK: 'C', ...partition, evil: 'x' }],
      ['long values', { PK: LONG, SK: LONG, GSI1SK: LONG, ...partition }],
      ['array', [partition]],
    ] as [string, unknown][]) {
      add({ name: `${path} cursor ${label}`, method: 'GET', path: `${path}?cursor=${cursor(key)}` });
    }
    for (const query of ['cursor=%%%', 'cursor=' + 'A'.repeat(5000), 'limit=-1', 'limit=0', 'limit=1000000', 'limit=abc', 'limit=1.5', 'limit=', 'tenant=' + LONG]) {
      add({ name: `${path}?${query.slice(0, 20)}`, method: 'GET', path: `${path}?${query}` });
    }
  }
  // Bodies: not JSON, wrong types, deep nesting, huge strings, header injection.
  const bodyRoutes: [string, string][] = [
    ['POST', '/emails'],
    ['POST', '/emails/batch'],
    ['POST', '/emails/test'],
    ['POST', '/domains'],
    ['POST', '/webhooks'],
    ['POST', '/suppressions'],
    ['POST', '/api-keys'],
    ['POST', '/attachments'],
  ];
  for (const [method, path] of bodyRoutes) {
    for (const [label, rawBody] of [
      ['empty', ''],
      ['not json', '{"a":'],
      ['null', 'null'],
      ['number', '42'],
      ['string', '"x"'],
      ['array of nulls', '[null, null]'],
      ['deep 100000', deepJson(100_000)],
      ['nul bytes', '{"name": "a\\u0000b"}'],
      ['lone surrogate', '{"name": "\\ud800"}'],
    ] as [string, string][]) {
      add({ name: `${path} ${label}`, method, path, rawBody, headers: { 'content-type': 'application/json' } });
    }
    add({ name: `${path} wrong content-type`, method, path, rawBody: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    add({ name: `${path} huge field`, method, path, body: { name: 'x'.repeat(2_000_000), url: 'x'.repeat(100_000), email: 'y'.repeat(100_000) } });
  }
  // The send request, field by field.
  const sends: [string, unknown][] = [
    ['from number', { ...SEND, from: 1 }],
    ['from object without email', { ...SEND, from: { name: 'x' } }],
    ['to huge list', { ...SEND, to: Array.from({ length: 1000 }, (_, i) => `a${i}@example.com`) }],
    ['to nested', { ...SEND, to: [['a@example.com']] }],
    ['subject CRLF', { ...SEND, subject: 'Hi\r\nBcc: x@y.z' }],
    ['subject huge', { ...SEND, subject: 'x'.repeat(100_000) }],
    ['headers injection', { ...SEND, headers: { 'X-A': 'a\r\nBcc: x@y.z' } }],
    ['headers array', { ...SEND, headers: ['a'] }],
    ['tags bad', { ...SEND, tags: [{ name: '', value: 'x' }, 5] }],
    ['scheduled garbage', { ...SEND, scheduled_at: 'tomorrow-ish' }],
    ['scheduled far', { ...SEND, scheduled_at: '9999-01-01T00:00:00Z' }],
    ['attachments garbage', { ...SEND, attachments: [{ filename: 'a.pdf', content: '!!!not base64' }] }],
    ['attachments ref unknown', { ...SEND, attachments: [{ attachment_id: 'att_nope' }] }],
    ['attachments ref long', { ...SEND, attachments: [{ attachment_id: LONG }] }],
    ['category bad', { ...SEND, category: 'spam' }],
    ['tenant long', { ...SEND, tenant: LONG }],
    ['template', { ...SEND, template: { id: 'x' } }],
    ['deep unknown field', { ...SEND, extra: deep(200) }],
  ];
  for (const [label, body] of sends) add({ name: `send ${label}`, method: 'POST', path: '/emails', body });
  add({ name: 'send deep unknown with Idempotency-Key', method: 'POST', path: '/emails', rawBody: `{"from":"a@sandbox.mailservice.dev","to":"owner@example.com","subject":"s","text":"t","x":${deepJson(100_000)}}`, headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-1' } });
  add({ name: 'batch deep unknown with Idempotency-Key', method: 'POST', path: '/emails/batch', rawBody: `{"emails":[{"from":"a@sandbox.mailservice.dev","to":"owner@example.com","subject":"s","text":"t","x":${deepJson(100_000)}}]}`, headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-2' } });
  add({ name: 'batch bad validation header', method: 'POST', path: '/emails/batch', body: [SEND], headers: { 'x-batch-validation': 'lenient' } });
  add({ name: 'idempotency key with spaces', method: 'POST', path: '/emails', body: SEND, headers: { 'idempotency-key': 'has spaces' } });
  add({ name: 'idempotency key too long', method: 'POST', path: '/emails', body: SEND, headers: { 'idempotency-key': 'k'.repeat(300) } });
  add({ name: 'PATCH email both', method: 'PATCH', path: '/emails/msg_01ZZZZZZZZZZZZZZZZZZZZZZZZ', body: { cancel: true, scheduled_at: 'x' } });
  add({ name: 'domain bad name', method: 'POST', path: '/domains', body: { name: '-bad-.example' } });
  add({ name: 'domain region', method: 'POST', path: '/domains', body: { name: 'ok.example', region: 42 } });
  add({ name: 'webhook http', method: 'POST', path: '/webhooks', body: { url: 'http://example.com', events: ['email.sent'] } });
  add({ name: 'webhook bad events', method: 'POST', path: '/webhooks', body: { url: 'https://example.com', events: ['nope'] } });
  add({ name: 'suppression both', method: 'POST', path: '/suppressions', body: { email: 'a@b.c', emails: ['a@b.c'] } });
  add({ name: 'suppression delete no email', method: 'DELETE', path: '/suppressions' });
  add({ name: 'api key bad scope', method: 'POST', path: '/api-keys', body: { name: 'k', scopes: ['root'] } });
  add({ name: 'attachment huge size', method: 'POST', path: '/attachments', body: { filename: 'a.pdf', size: 1e20 } });
  add({ name: 'attachment blocked', method: 'POST', path: '/attachments', body: { filename: 'a.exe' } });
  return cases;
}

describe('the bad-input corpus', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount();
  });

  it('never answers 5xx, and every refusal carries the error envelope', async () => {
    const cases = corpus(account);
    expect(cases.length).toBeGreaterThan(200);
    const failures: string[] = [];
    for (const c of cases) {
      const response = await api(c.method, c.path, { key: account.key, body: c.body, rawBody: c.rawBody, headers: c.headers });
      if (response.status >= 500) failures.push(`${c.name}: ${response.status} ${response.text.slice(0, 200)}`);
      else if (response.status >= 400 && (typeof response.body?.error?.message !== 'string' || typeof response.body?.error?.code !== 'string')) {
        failures.push(`${c.name}: ${response.status} without the envelope: ${response.text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses a subject with CR/LF with 400 naming subject (nothing is stored with it)', async () => {
    const response = await api('POST', '/emails', { key: account.key, body: { ...SEND, to: account.email, subject: 'Hi\r\nBcc: x@y.z' } });
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'subject' })]));
  });

  it('answers 404 for ids too long to be ours, and 400 naming cursor for a cursor of the caller\'s partition with foreign fields', async () => {
    expect((await api('GET', `/emails/msg_${LONG}`, { key: account.key })).status).toBe(404);
    const foreign = await api('GET', `/emails?cursor=${cursor({ GSI1PK: `ACCOUNT#${account.id}#EMAILS#0`, PK: 'X' })}`, { key: account.key });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details.fields[0].field).toBe('cursor');
  });

  it('fingerprints a deeply nested body with an Idempotency-Key without crashing', async () => {
    const rawBody = `{"from":"a@sandbox.mailservice.dev","to":"${account.email}","subject":"s","text":"t","x":${deepJson(100_000)}}`;
    const response = await api('POST', '/emails', { key: account.key, rawBody, headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-ok' } });
    expect(response.status).toBeLessThan(500);
    void stack;
  });
});
