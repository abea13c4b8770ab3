/**
 * A corpus of malformed requests across every route: none may answer 5xx, and every refusal carries the
 * spec's error envelope. Keep adding cases here when a bad input is found to misbehave.
 */
import { connect } from 'node:net';
import { api, newAccount, stack, type TestAccount } from './harness/stack';

interface Case {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

interface Answer {
  status: number;
  text: string;
  body: any;
}

/** One request; a Buffer body goes out byte for byte (invalid UTF-8 included). */
async function call(c: Case, key: string): Promise<Answer> {
  if (!Buffer.isBuffer(c.rawBody)) {
    const response = await api(c.method, c.path, { key, body: c.body, rawBody: c.rawBody, headers: c.headers });
    return { status: response.status, text: response.text, body: response.body };
  }
  const response = await fetch(stack().apiUrl + c.path, {
    method: c.method,
    headers: { authorization: `Bearer ${key}`, ...c.headers },
    body: c.rawBody,
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, text, body };
}

/** Bytes written straight to the API's socket (requests no HTTP client would send); the answer's status and body. */
function rawHttp(bytes: string): Promise<Answer> {
  const url = new URL(stack().apiUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(url.port), url.hostname, () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const payload = text.slice(text.indexOf('\r\n\r\n') + 4);
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        body = undefined;
      }
      resolve({ status, text, body });
    });
    socket.setTimeout(10_000, () => socket.destroy());
  });
}

/** Path segments sent as they are (not encoded by the test): odd percent-encoding, control characters, multi-byte. */
const RAW_SEGMENTS = [
  'msg_%FF',
  'msg_%ED%A0%80',
  '%',
  'msg_%',
  'msg%0d%0aX-Injected:%201',
  '%E4%B8%AD'.repeat(100),
  '%C3%A9'.repeat(200),
  '%F0%9F%98%80'.repeat(80),
  'msg_..%2F..%2Fapi-keys',
  'msg_%252F',
];

/** A segment of `bytes` UTF-8 bytes (3-byte characters), percent-encoded. */
const multiByteSegment = (bytes: number) => encodeURIComponent('\u4e2d'.repeat(Math.ceil(bytes / 3)));

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

function corpus(account: TestAccount, webhookId: string): Case[] {
  const acc = account.id;
  const cases: Case[] = [];
  const add = (c: Case) => cases.push(c);
  // Long and odd ids on every {id} route.
  for (const id of [
    LONG,
    `msg_${LONG}`,
    '%00',
    'msg_%0d%0a',
    '..',
    'msg_01ZZZZZZZZZZZZZZZZZZZZZZZZ',
    "msg_'; DROP TABLE",
    '\u00e9\u00e9',
  ]) {
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
  for (const raw of [...RAW_SEGMENTS, multiByteSegment(600), multiByteSegment(1500)]) {
    const name = raw.slice(0, 16);
    add({ name: `GET email raw ${name}`, method: 'GET', path: `/emails/${raw}` });
    add({ name: `PATCH email raw ${name}`, method: 'PATCH', path: `/emails/${raw}`, body: { cancel: true } });
    add({ name: `resend email raw ${name}`, method: 'POST', path: `/emails/${raw}/resend` });
    add({ name: `GET domain raw ${name}`, method: 'GET', path: `/domains/${raw}` });
    add({ name: `PATCH domain raw ${name}`, method: 'PATCH', path: `/domains/${raw}`, body: { click_tracking: true } });
    add({ name: `DELETE domain raw ${name}`, method: 'DELETE', path: `/domains/${raw}` });
    add({ name: `GET webhook raw ${name}`, method: 'GET', path: `/webhooks/${raw}` });
    add({ name: `PATCH webhook raw ${name}`, method: 'PATCH', path: `/webhooks/${raw}`, body: { enabled: false } });
    add({ name: `DELETE webhook raw ${name}`, method: 'DELETE', path: `/webhooks/${raw}` });
    add({ name: `deliveries raw ${name}`, method: 'GET', path: `/webhooks/${raw}/deliveries` });
    add({ name: `delivery raw ${name}`, method: 'GET', path: `/webhooks/${webhookId}/deliveries/${raw}` });
    add({ name: `replay raw ${name}`, method: 'POST', path: `/webhooks/${webhookId}/deliveries/${raw}/replay` });
    add({ name: `DELETE key raw ${name}`, method: 'DELETE', path: `/api-keys/${raw}` });
    add({ name: `GET attachment raw ${name}`, method: 'GET', path: `/attachments/${raw}` });
  }
  // Bodies on the routes of one real webhook.
  for (const [label, body] of [
    ['array', [{ enabled: false }]],
    ['url number', { url: 5 }],
    ['events huge', { events: Array.from({ length: 10_000 }, () => 'email.sent') }],
    ['tenants multi-byte', { tenants: ['\u4e2d'.repeat(600)] }],
    ['unknown', { nope: true }],
  ] as [string, unknown][]) {
    add({ name: `PATCH webhook ${label}`, method: 'PATCH', path: `/webhooks/${webhookId}`, body });
  }
  add({ name: 'replay unknown delivery', method: 'POST', path: `/webhooks/${webhookId}/deliveries/whd_01ZZZZZZZZZZZZZZZZZZZZZZZZ/replay` });
  // Cursors: garbage, foreign, the caller's partition with missing or foreign other fields, on every list.
  const lists: [string, Record<string, string>][] = [
    ['/emails', { GSI1PK: `ACCOUNT#${acc}#EMAILS#0` }],
    ['/domains', { GSI1PK: `ACCOUNT#${acc}#DOMAINS` }],
    ['/webhooks', { GSI1PK: `ACCOUNT#${acc}#WEBHOOKS` }],
    ['/suppressions', { GSI1PK: `ACCOUNT#${acc}#SUPPRESSIONS#0` }],
    ['/api-keys', { PK: `ACCOUNT#${acc}` }],
    [`/webhooks/${webhookId}/deliveries`, { GSI1PK: `WEBHOOK#${webhookId}#DELIVERIES` }],
  ];
  const wide = '\u4e2d'.repeat(400); // 1200 bytes: within the query's 2048 characters once encoded, over DynamoDB's 1 KB sort key
  for (const [path, partition] of lists) {
    for (const [label, key] of [
      ['partition only', partition],
      ['no sort key', { ...partition, PK: 'EMAIL#x' }],
      ['foreign SK', { PK: `ACCOUNT#${acc}`, SK: 'ACCOUNT', ...partition }],
      ['numbers', { ...partition, PK: 1, SK: 2 }],
      ['extra field', { PK: 'A', SK: 'B', GSI1SK: 'C', ...partition, evil: 'x' }],
      ['long values', { PK: LONG, SK: LONG, GSI1SK: LONG, ...partition }],
      ['multi-byte sort key', { PK: 'EMAIL#x', SK: `APIKEY#${wide}`, GSI1SK: wide, ...partition }],
      ['empty values', { PK: '', SK: '', GSI1SK: '', ...partition }],
      ['null values', { PK: null, SK: null, GSI1SK: null, ...partition }],
      ['nested values', { PK: { S: 'x' }, SK: { S: 'y' }, GSI1SK: { S: 'z' }, ...partition }],
      ['__proto__', JSON.parse(`{"__proto__": {"PK": "x"}, "SK": "y", "GSI1SK": "z", ${JSON.stringify(partition).slice(1, -1)}}`)],
      ['string', 'ACCOUNT'],
      ['null', null],
      ['array', [partition]],
    ] as [string, unknown][]) {
      add({ name: `${path} cursor ${label}`, method: 'GET', path: `${path}?cursor=${cursor(key)}` });
    }
    for (const query of [
      'cursor=%%%',
      `cursor=${'A'.repeat(5000)}`,
      'cursor=a&cursor=b',
      'cursor=%00',
      'limit=-1',
      'limit=0',
      'limit=1000000',
      'limit=1e2',
      'limit=abc',
      'limit=1.5',
      'limit=',
      'limit=1&limit=2',
      'limit=%FF',
      `tenant=${LONG}`,
      `tenant=${multiByteSegment(900)}`,
      'tenant=%00',
      'tenant=a&tenant=b',
    ]) {
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
      ['array where an object is expected', '[{}]'],
      ['deep arrays', '['.repeat(100_000) + ']'.repeat(100_000)],
      ['huge number', `{"name": ${'9'.repeat(400)}}`],
      ['infinite number', '{"name": 1e999999}'],
      ['__proto__', '{"__proto__": {"admin": true}, "constructor": {"prototype": {"admin": true}}}'],
      ['duplicate keys', '{"name": "a", "name": {"x": 1}}'],
      ['BOM', '\ufeff{}'],
      ['trailing garbage', '{} {}'],
    ] as [string, string][]) {
      add({ name: `${path} ${label}`, method, path, rawBody, headers: { 'content-type': 'application/json' } });
    }
    add({
      name: `${path} wrong content-type`,
      method,
      path,
      rawBody: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    for (const type of [
      'text/plain',
      'multipart/form-data; boundary=x',
      'application/json; charset=utf-16',
      'application/octet-stream',
      '',
      'application/json, text/html',
    ]) {
      add({ name: `${path} content-type ${type}`, method, path, rawBody: '{"a":1}', headers: { 'content-type': type } });
    }
    add({
      name: `${path} content-encoding gzip`,
      method,
      path,
      rawBody: '{"a":1}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    const invalidUtf8 = Buffer.concat([
      Buffer.from('{"name":"'),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
      Buffer.from('","email":"a@b.c"}'),
    ]);
    add({ name: `${path} invalid UTF-8`, method, path, rawBody: invalidUtf8, headers: { 'content-type': 'application/json' } });
    add({
      name: `${path} binary`,
      method,
      path,
      rawBody: Buffer.from([0, 1, 2, 0xff, 0x80, 0]),
      headers: { 'content-type': 'application/octet-stream' },
    });
    add({
      name: `${path} huge field`,
      method,
      path,
      body: { name: 'x'.repeat(2_000_000), url: 'x'.repeat(100_000), email: 'y'.repeat(100_000) },
    });
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
  add({
    name: 'send deep unknown with Idempotency-Key',
    method: 'POST',
    path: '/emails',
    rawBody: `{"from":"a@sandbox.mailservice.dev","to":"owner@example.com","subject":"s","text":"t","x":${deepJson(100_000)}}`,
    headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-1' },
  });
  add({
    name: 'batch deep unknown with Idempotency-Key',
    method: 'POST',
    path: '/emails/batch',
    rawBody: `{"emails":[{"from":"a@sandbox.mailservice.dev","to":"owner@example.com","subject":"s","text":"t","x":${deepJson(100_000)}}]}`,
    headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-2' },
  });
  add({
    name: 'batch bad validation header',
    method: 'POST',
    path: '/emails/batch',
    body: [SEND],
    headers: { 'x-batch-validation': 'lenient' },
  });
  add({ name: 'idempotency key with spaces', method: 'POST', path: '/emails', body: SEND, headers: { 'idempotency-key': 'has spaces' } });
  add({ name: 'idempotency key too long', method: 'POST', path: '/emails', body: SEND, headers: { 'idempotency-key': 'k'.repeat(300) } });
  add({ name: 'idempotency key latin-1', method: 'POST', path: '/emails', body: SEND, headers: { 'idempotency-key': 'k\u00e9' } });
  add({ name: 'idempotency key empty', method: 'POST', path: '/emails', body: SEND, headers: { 'idempotency-key': '' } });
  add({
    name: 'batch idempotency key with spaces',
    method: 'POST',
    path: '/emails/batch',
    body: [SEND],
    headers: { 'idempotency-key': 'a b' },
  });
  add({
    name: 'batch validation header long',
    method: 'POST',
    path: '/emails/batch',
    body: [SEND],
    headers: { 'x-batch-validation': 'x'.repeat(5000) },
  });
  add({ name: 'batch of 10000', method: 'POST', path: '/emails/batch', body: Array.from({ length: 10_000 }, () => SEND) });
  add({ name: 'batch of arrays', method: 'POST', path: '/emails/batch', body: { emails: [[SEND], 'x', null, 5] } });
  add({
    name: 'send with body fields of every wrong type',
    method: 'POST',
    path: '/emails',
    body: {
      from: [],
      to: {},
      subject: 5,
      html: [],
      text: {},
      cc: 5,
      bcc: 'x',
      reply_to: 1,
      tags: 'x',
      headers: 'x',
      attachments: 'x',
      scheduled_at: 5,
    },
  });
  add({ name: 'send subject with NUL', method: 'POST', path: '/emails', body: { ...SEND, subject: 'a\u0000b' } });
  add({
    name: 'send from with CRLF',
    method: 'POST',
    path: '/emails',
    body: { ...SEND, from: 'A\r\nBcc: x@y.z <a@sandbox.mailservice.dev>' },
  });
  add({ name: 'send to with CRLF', method: 'POST', path: '/emails', body: { ...SEND, to: 'owner@example.com\r\nBcc: x@y.z' } });
  add({ name: 'send header name with colon', method: 'POST', path: '/emails', body: { ...SEND, headers: { 'X-A: b\r\nBcc': 'x' } } });
  add({ name: 'test event unknown', method: 'POST', path: '/emails/test', body: { event: 'nope' } });
  add({ name: 'test event deep data', method: 'POST', path: '/emails/test', body: { event: 'email.delivered', data: deep(500) } });
  add({ name: 'PATCH email array', method: 'PATCH', path: '/emails/msg_01ZZZZZZZZZZZZZZZZZZZZZZZZ', body: [{ cancel: true }] });
  add({
    name: 'PATCH email scheduled number',
    method: 'PATCH',
    path: '/emails/msg_01ZZZZZZZZZZZZZZZZZZZZZZZZ',
    body: { scheduled_at: 1e20 },
  });
  add({
    name: 'verify domain unknown action',
    method: 'POST',
    path: '/domains/dom_01ZZZZZZZZZZZZZZZZZZZZZZZZ',
    body: { action: 'explode' },
  });
  add({
    name: 'suppressions delete email multi-byte',
    method: 'DELETE',
    path: `/suppressions?email=${multiByteSegment(900)}%40example.com`,
  });
  add({ name: 'suppressions list reason garbage', method: 'GET', path: '/suppressions?reason=%00' });
  add({ name: 'unknown route', method: 'GET', path: `/${LONG}` });
  add({ name: 'unknown method', method: 'PUT', path: '/emails' });
  add({
    name: 'PATCH email both',
    method: 'PATCH',
    path: '/emails/msg_01ZZZZZZZZZZZZZZZZZZZZZZZZ',
    body: { cancel: true, scheduled_at: 'x' },
  });
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
  let webhookId: string;
  beforeAll(async () => {
    account = await newAccount();
    const created = await api('POST', '/webhooks', {
      key: account.key,
      body: { url: `${stack().info.webhook_inbox_url}corpus`, events: ['email.delivered'] },
    });
    expect(created.status).toBe(200);
    webhookId = created.body.webhook.id;
  });

  it('never answers 5xx, and every refusal carries the error envelope', async () => {
    const cases = corpus(account, webhookId);
    expect(cases.length).toBeGreaterThan(400);
    const failures: string[] = [];
    for (const c of cases) {
      const response = await call(c, account.key);
      if (response.status >= 500) failures.push(`${c.name}: ${response.status} ${response.text.slice(0, 200)}`);
      else if (
        response.status >= 400 &&
        (typeof response.body?.error?.message !== 'string' || typeof response.body?.error?.code !== 'string')
      ) {
        failures.push(`${c.name}: ${response.status} without the envelope: ${response.text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers requests the HTTP parser refuses with the envelope, not an empty 400', async () => {
    const requests = [
      'GET /emails HTTP/1.1\r\nHost: x\r\nNo Colon Here\r\n\r\n',
      'GET /emails HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n',
      'POST /emails HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'NOT-HTTP\r\n\r\n',
      `GET /emails?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ];
    for (const bytes of requests) {
      const answer = await rawHttp(bytes);
      expect([answer.status, answer.body?.error]).toEqual([expect.any(Number), { message: expect.any(String), code: expect.any(String) }]);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
  });

  it('refuses a subject with CR/LF with 400 naming subject (nothing is stored with it)', async () => {
    const response = await api('POST', '/emails', { key: account.key, body: { ...SEND, to: account.email, subject: 'Hi\r\nBcc: x@y.z' } });
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'subject' })]));
  });

  it('answers 404 not_found for a path segment too long or too odd to be an id, on every {id} route', async () => {
    const fresh = await newAccount();
    // 1500 bytes in 500 characters: short enough for a character count, over DynamoDB's 1 KB sort key.
    const tooLong = [`msg_${LONG}`, multiByteSegment(300), multiByteSegment(1500), '%F0%9F%98%80'.repeat(65), 'msg%0d%0aX:%201', 'msg_%00'];
    for (const id of tooLong) {
      for (const [method, path] of [
        ['GET', `/emails/${id}`],
        ['PATCH', `/emails/${id}`],
        ['POST', `/emails/${id}/resend`],
        ['GET', `/domains/${id}`],
        ['GET', `/webhooks/${id}`],
        ['GET', `/webhooks/${id}/deliveries`],
        ['DELETE', `/api-keys/${id}`],
        ['GET', `/attachments/${id}`],
      ]) {
        const response = await api(method!, path!, { key: fresh.key, body: method === 'PATCH' ? { cancel: true } : undefined });
        expect([method, path!.slice(0, 40), response.status, response.body?.error?.code]).toEqual([
          method,
          path!.slice(0, 40),
          404,
          'not_found',
        ]);
      }
    }
    // Still 401 before 404: a bad caller learns nothing about the path.
    expect((await api('GET', `/emails/msg_${LONG}`, { key: 'svc_nope' })).status).toBe(401);
    // Undecodable percent-encoding reaches the function as it is and names nothing.
    expect((await api('GET', '/emails/msg_%FF', { key: fresh.key })).status).toBe(404);
  });

  it("answers 400 validation_error naming cursor for a cursor of the caller's partition with missing, foreign or oversized fields", async () => {
    const fresh = await newAccount();
    const created = await api('POST', '/webhooks', {
      key: fresh.key,
      body: { url: `${stack().info.webhook_inbox_url}cursor`, events: ['email.sent'] },
    });
    const wh = created.body.webhook.id;
    const wide = '\u4e2d'.repeat(400);
    const cases: [string, Record<string, unknown>][] = [
      ['/emails', { GSI1PK: `ACCOUNT#${fresh.id}#EMAILS#0`, PK: 'X' }],
      ['/emails', { GSI1PK: `ACCOUNT#${fresh.id}#EMAILS#0`, PK: 'EMAIL#x', SK: 'EMAIL', GSI1SK: wide }],
      ['/domains', { GSI1PK: `ACCOUNT#${fresh.id}#DOMAINS`, PK: 'DOMAIN#x', SK: 'DOMAIN' }],
      ['/webhooks', { GSI1PK: `ACCOUNT#${fresh.id}#WEBHOOKS`, PK: 'WEBHOOK#x', SK: 'WEBHOOK', GSI1SK: 'x', extra: 'y' }],
      ['/suppressions', { GSI1PK: `ACCOUNT#${fresh.id}#SUPPRESSIONS#0`, PK: 1, SK: 'ACCOUNT', GSI1SK: 'x' }],
      ['/api-keys', { PK: `ACCOUNT#${fresh.id}`, SK: 'ACCOUNT' }],
      ['/api-keys', { PK: `ACCOUNT#${fresh.id}`, SK: `APIKEY#${wide}` }],
      [`/webhooks/${wh}/deliveries`, { GSI1PK: `WEBHOOK#${wh}#DELIVERIES` }],
      [`/webhooks/${wh}/deliveries`, { GSI1PK: `WEBHOOK#${wh}#DELIVERIES`, PK: 'DELIVERY#x', SK: 'DELIVERY', GSI1SK: wide }],
    ];
    for (const [path, key] of cases) {
      const response = await api('GET', `${path}?cursor=${cursor(key)}`, { key: fresh.key });
      expect([path, response.status, response.body?.error?.code, response.body?.error?.details?.fields?.[0]?.field]).toEqual([
        path,
        400,
        'validation_error',
        'cursor',
      ]);
    }
  });

  it('fingerprints a deeply nested body with an Idempotency-Key without crashing: unknown fields dropped on a send, 400 on a batch', async () => {
    // 40 levels: past the fingerprint's 32, within the 64 any body may have (shared/doors/http/request-validation.ts).
    const rawBody = `{"from":"a@sandbox.mailservice.dev","to":"${account.email}","subject":"s","text":"t","x":${deepJson(40)}}`;
    const single = await api('POST', '/emails', {
      key: account.key,
      rawBody,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-ok' },
    });
    expect(single.status).toBe(200);
    const batch = await api('POST', '/emails/batch', {
      key: account.key,
      rawBody: `{"emails":[${rawBody}]}`,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-batch' },
    });
    expect([batch.status, batch.body?.error?.code]).toEqual([400, 'validation_error']);
    // 100,000 levels: refused whole before any schema or fingerprint walks it, naming the field.
    const deeper = await api('POST', '/emails', {
      key: account.key,
      rawBody: rawBody.replace(deepJson(40), deepJson(100_000)),
      headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-deeper' },
    });
    expect([deeper.status, deeper.body?.error?.details?.fields?.[0]?.field]).toEqual([400, 'x']);
  });
});
