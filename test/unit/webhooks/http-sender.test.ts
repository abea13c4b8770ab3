/** HttpsWebhookSender against real HTTPS receivers on loopback, trusted through a throwaway CA. */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LookupAddress } from 'node:dns';
import { Webhook } from 'standardwebhooks';
import { HttpsWebhookSender, senderFromEnv, type HostResolver } from '#shared/adapters/webhooks/http-sender';
import { isSuccessfulSend } from '#shared/ports/webhook-sender';
import { generateWebhookSecret, signatureHeaders, verifyServiceSignature } from '#shared/domain/webhooks/signing';
import { createTestCa, startHttpsReceiver, type HttpsReceiver, type TestCa } from '../../support/https-receiver';

const PINNED_NAME = 'hooks.pinning.example';
const BODY = JSON.stringify({ type: 'email.delivered', data: { email_id: 'msg_01', subject: 'Grüße ✓' } });

let dir: string;
let ca: TestCa;
let otherCa: TestCa;
let receiver: HttpsReceiver;
let sender: HttpsWebhookSender;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-sender-'));
  fs.mkdirSync(path.join(dir, 'trusted'));
  fs.mkdirSync(path.join(dir, 'untrusted'));
  [ca, otherCa] = await Promise.all([
    createTestCa(path.join(dir, 'trusted'), { extraDnsNames: [PINNED_NAME] }),
    createTestCa(path.join(dir, 'untrusted')),
  ]);
  sender = new HttpsWebhookSender({ allowLoopback: true, extraCaFile: ca.caFile });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

beforeEach(async () => {
  receiver = await startHttpsReceiver(ca);
});
afterEach(async () => {
  await receiver.close();
});

function signed(body = BODY) {
  const secret = generateWebhookSecret();
  const headers = signatureHeaders({ secrets: [secret], webhookId: 'whd_01TEST', timestamp: Math.floor(Date.now() / 1000), body });
  return { secret, headers };
}

test('2xx: success; the receiver gets the headers and the exact body, and can verify both signatures', async () => {
  receiver.setResponder(() => ({ status: 204 }));
  const { secret, headers } = signed();
  const result = await sender.send({ url: `${receiver.url}?tag=a`, headers, body: BODY });

  expect(result).toEqual({ statusCode: 204, durationMs: expect.any(Number), error: null, responseExcerpt: '' });
  expect(isSuccessfulSend(result)).toBe(true);
  expect(receiver.requests).toHaveLength(1);
  const [request] = receiver.requests;
  expect(request!.method).toBe('POST');
  expect(request!.path).toBe('/webhook?tag=a');
  expect(request!.body).toBe(BODY);
  expect(request!.headers).toMatchObject({
    ...headers,
    'content-type': 'application/json',
    'user-agent': 'mailservice-webhooks/1',
    'content-length': String(Buffer.byteLength(BODY)),
    host: `127.0.0.1:${receiver.port}`,
  });
  const received = request!.headers as Record<string, string>;
  expect(verifyServiceSignature({ secret, header: received['service-signature']!, body: request!.body, now: new Date() }).ok).toBe(true);
  expect(new Webhook(secret).verify(request!.body, received)).toEqual(JSON.parse(BODY));
});

test('sender-owned headers win over the caller’s', async () => {
  await sender.send({
    url: receiver.url,
    headers: { 'Content-Type': 'text/plain', 'User-Agent': 'evil', Host: 'evil.example', 'X-Extra': 'kept' },
    body: BODY,
  });
  expect(receiver.requests[0]!.headers).toMatchObject({
    'content-type': 'application/json',
    'user-agent': 'mailservice-webhooks/1',
    host: `127.0.0.1:${receiver.port}`,
    'x-extra': 'kept',
  });
});

test('500: a failure, with the response excerpt', async () => {
  receiver.setResponder(() => ({ status: 500, body: 'database on fire' }));
  const result = await sender.send({ url: receiver.url, headers: signed().headers, body: BODY });
  expect(result).toMatchObject({ statusCode: 500, error: null, responseExcerpt: 'database on fire' });
  expect(isSuccessfulSend(result)).toBe(false);
});

test('the excerpt is the first 500 characters of a large body', async () => {
  const big = 'é'.repeat(300) + 'x'.repeat(1_000_000);
  receiver.setResponder(() => ({ status: 200, body: big }));
  const result = await sender.send({ url: receiver.url, headers: {}, body: BODY });
  expect(result.statusCode).toBe(200);
  expect(result.responseExcerpt).toBe(big.slice(0, 500));
});

test('a receiver that never answers: timeout within the configured limit', async () => {
  receiver.setResponder(() => ({ status: 200, delayMs: Infinity }));
  const started = Date.now();
  const result = await sender.send({ url: receiver.url, headers: {}, body: BODY, timeoutMs: 300 });
  const elapsed = Date.now() - started;
  expect(result).toMatchObject({ statusCode: null, error: 'timeout after 300 ms', responseExcerpt: null });
  expect(result.durationMs).toBeGreaterThanOrEqual(290);
  expect(elapsed).toBeLessThan(1500);
  expect(receiver.requests).toHaveLength(1); // it did arrive; the answer did not
});

test('the constructor’s timeout is the default', async () => {
  receiver.setResponder(() => ({ status: 200, delayMs: Infinity }));
  const quick = new HttpsWebhookSender({ allowLoopback: true, extraCaFile: ca.caFile, timeoutMs: 200 });
  const result = await quick.send({ url: receiver.url, headers: {}, body: BODY });
  expect(result.error).toBe('timeout after 200 ms');
});

test('a slow answer inside the limit is fine', async () => {
  receiver.setResponder(() => ({ status: 200, body: 'late', delayMs: 100 }));
  const result = await sender.send({ url: receiver.url, headers: {}, body: BODY, timeoutMs: 2000 });
  expect(result).toMatchObject({ statusCode: 200, responseExcerpt: 'late', error: null });
});

test('connection refused: an error, no status', async () => {
  const port = await freePort();
  const result = await sender.send({ url: `https://127.0.0.1:${port}/hook`, headers: {}, body: BODY });
  expect(result).toMatchObject({ statusCode: null, error: 'connection refused (ECONNREFUSED)', responseExcerpt: null });
  expect(isSuccessfulSend(result)).toBe(false);
});

test('301: a failure, the redirect is not followed', async () => {
  const target = await startHttpsReceiver(ca);
  try {
    receiver.setResponder(() => ({ status: 301, headers: { location: target.url }, body: 'moved' }));
    const result = await sender.send({ url: receiver.url, headers: {}, body: BODY });
    expect(result).toMatchObject({ statusCode: 301, error: null, responseExcerpt: 'moved' });
    expect(isSuccessfulSend(result)).toBe(false);
    expect(target.requests).toHaveLength(0);
  } finally {
    await target.close();
  }
});

test('loopback refused when allowLoopback is false: the error says why and no request is made', async () => {
  const production = new HttpsWebhookSender({ allowLoopback: false, extraCaFile: ca.caFile });
  for (const url of [receiver.url, `https://[::1]:${receiver.port}/webhook`, `https://localhost:${receiver.port}/webhook`]) {
    const result = await production.send({ url, headers: {}, body: BODY });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/^refused: the host is a (forbidden address \(loopback\)|loopback name)$/);
  }
  expect(receiver.requests).toHaveLength(0);
});

test('a name resolving to a loopback address is refused after DNS, without connecting', async () => {
  const resolveHost: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
  const production = new HttpsWebhookSender({ allowLoopback: false, extraCaFile: ca.caFile, resolveHost });
  const result = await production.send({ url: `https://${PINNED_NAME}:${receiver.port}/webhook`, headers: {}, body: BODY });
  expect(result.error).toBe('refused: the host resolves to a forbidden address (loopback)');
  expect(receiver.requests).toHaveLength(0);
});

test('ANY forbidden address among the resolved ones refuses the attempt (private and metadata, even with loopback allowed)', async () => {
  const answers: LookupAddress[][] = [
    [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ],
    [
      { address: '127.0.0.1', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ],
    [{ address: '::ffff:a9fe:a9fe', family: 6 }],
    [{ address: 'fd00:ec2::254', family: 6 }],
  ];
  const expected = ['private', 'metadata', 'metadata', 'metadata'];
  for (const [i, answer] of answers.entries()) {
    const local = new HttpsWebhookSender({ allowLoopback: true, extraCaFile: ca.caFile, resolveHost: async () => answer });
    const result = await local.send({ url: `https://${PINNED_NAME}:${receiver.port}/webhook`, headers: {}, body: BODY });
    expect(result.error).toBe(`refused: the host resolves to a forbidden address (${expected[i]})`);
  }
  expect(receiver.requests).toHaveLength(0);
});

test('the connection is pinned to the checked address: one lookup, SNI and Host keep the name', async () => {
  // The name does not exist in real DNS; only our resolver maps it (once) to the receiver. A rebinding
  // answer on a second lookup would point at the metadata service.
  const calls: string[] = [];
  const resolveHost: HostResolver = async (host) => {
    calls.push(host);
    return calls.length === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '169.254.169.254', family: 4 }];
  };
  const local = new HttpsWebhookSender({ allowLoopback: true, extraCaFile: ca.caFile, resolveHost });
  const result = await local.send({ url: `https://${PINNED_NAME}:${receiver.port}/webhook`, headers: {}, body: BODY });
  expect(result).toMatchObject({ statusCode: 200, error: null });
  expect(calls).toEqual([PINNED_NAME]);
  expect(receiver.requests[0]!.headers.host).toBe(`${PINNED_NAME}:${receiver.port}`);
});

test('several checked addresses: the connection may try each of them (and only them)', async () => {
  // Nothing listens on ::1 for this receiver; happy eyeballs falls back to the other checked address.
  const resolveHost: HostResolver = async () => [
    { address: '::1', family: 6 },
    { address: '127.0.0.1', family: 4 },
  ];
  const local = new HttpsWebhookSender({ allowLoopback: true, extraCaFile: ca.caFile, resolveHost });
  const result = await local.send({ url: `https://${PINNED_NAME}:${receiver.port}/webhook`, headers: {}, body: BODY });
  expect(result).toMatchObject({ statusCode: 200, error: null });
});

test('DNS failure: an error, no connection', async () => {
  const resolveHost: HostResolver = async () => {
    throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
  };
  const local = new HttpsWebhookSender({ allowLoopback: true, resolveHost });
  const result = await local.send({ url: 'https://nowhere.example/hook', headers: {}, body: BODY });
  expect(result).toMatchObject({ statusCode: null, error: 'could not resolve the host (ENOTFOUND)' });
});

test('a DNS lookup that hangs counts against the timeout', async () => {
  const local = new HttpsWebhookSender({ allowLoopback: true, resolveHost: () => new Promise(() => {}) });
  const result = await local.send({ url: 'https://slow-dns.example/hook', headers: {}, body: BODY, timeoutMs: 150 });
  expect(result.error).toBe('timeout after 150 ms (resolving the host)');
});

test('invalid URLs are refused at delivery too', async () => {
  const result = await sender.send({ url: `http://127.0.0.1:${receiver.port}/webhook`, headers: {}, body: BODY });
  expect(result.error).toBe('refused: the URL must use https');
  expect(receiver.requests).toHaveLength(0);
});

test('an untrusted certificate (not signed by the configured CA): TLS error, no request', async () => {
  const impostor = await startHttpsReceiver(otherCa);
  try {
    const result = await sender.send({ url: impostor.url, headers: {}, body: BODY });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/^TLS error: .+ \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\)$/);
    expect(impostor.requests).toHaveLength(0);
  } finally {
    await impostor.close();
  }
});

test('without the extra CA file only the system CAs are trusted', async () => {
  const systemOnly = new HttpsWebhookSender({ allowLoopback: true });
  const result = await systemOnly.send({ url: receiver.url, headers: {}, body: BODY });
  expect(result.error).toMatch(/^TLS error: /);
  expect(receiver.requests).toHaveLength(0);
});

test('a certificate for another name: TLS error', async () => {
  const resolveHost: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
  const local = new HttpsWebhookSender({ allowLoopback: true, extraCaFile: ca.caFile, resolveHost });
  const result = await local.send({ url: `https://other-name.example:${receiver.port}/webhook`, headers: {}, body: BODY });
  expect(result.error).toMatch(/^TLS error: .+ \(ERR_TLS_CERT_ALTNAME_INVALID\)$/);
  expect(receiver.requests).toHaveLength(0);
});

describe('senderFromEnv', () => {
  test('WEBHOOK_ALLOW_LOOPBACK (true/1) and WEBHOOK_CA_FILE', async () => {
    for (const flag of ['true', '1']) {
      const local = senderFromEnv({ WEBHOOK_ALLOW_LOOPBACK: flag, WEBHOOK_CA_FILE: ca.caFile });
      expect((await local.send({ url: receiver.url, headers: {}, body: BODY })).statusCode).toBe(200);
    }
    expect(receiver.requests).toHaveLength(2);
  });

  test('defaults: loopback refused', async () => {
    for (const env of [{}, { WEBHOOK_ALLOW_LOOPBACK: 'false' }, { WEBHOOK_ALLOW_LOOPBACK: 'yes' }]) {
      const result = await senderFromEnv({ ...env, WEBHOOK_CA_FILE: ca.caFile }).send({ url: receiver.url, headers: {}, body: BODY });
      expect(result.error).toBe('refused: the host is a forbidden address (loopback)');
    }
    expect(receiver.requests).toHaveLength(0);
  });

  test('an unreadable CA file is a configuration error at construction', () => {
    expect(() => senderFromEnv({ WEBHOOK_CA_FILE: path.join(dir, 'missing.pem') })).toThrow(/ENOENT/);
  });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
