/** Webhook signatures: Service-Signature (the spec's four receiver steps) and Standard Webhooks. */
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, parseServiceSignature, signatureHeaders, verifyServiceSignature } from '#shared/domain/webhooks/signing';

const BODY = '{"type":"email.delivered","created_at":"2025-01-01T00:00:00.000Z","data":{"email_id":"msg_01","to":["ünï@example.com"]}}';
const NOW = new Date('2025-06-01T12:00:00.000Z');
const T = Math.floor(NOW.getTime() / 1000);

function headersAt(secret: string, timestamp: number, body = BODY) {
  return signatureHeaders({ secrets: [secret], webhookId: 'whd_01JTEST', timestamp, body });
}

describe('generateWebhookSecret', () => {
  test('whsec_ + base64 of 32 random bytes, different each time', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(a).not.toBe(b);
  });
});

describe('signatureHeaders', () => {
  test('returns the four headers with the documented formats', () => {
    const headers = headersAt(generateWebhookSecret(), T);
    expect(Object.keys(headers).sort()).toEqual(['service-signature', 'webhook-id', 'webhook-signature', 'webhook-timestamp']);
    expect(headers['service-signature']).toMatch(new RegExp(`^t=${T},v1=[0-9a-f]{64}$`));
    expect(headers['webhook-id']).toBe('whd_01JTEST');
    expect(headers['webhook-timestamp']).toBe(String(T));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  test('Service-Signature is keyed with the whole secret string as UTF-8 (what a literal receiver computes)', () => {
    const secret = generateWebhookSecret();
    const expected = createHmac('sha256', secret).update(`${T}.${BODY}`).digest('hex');
    expect(headersAt(secret, T)['service-signature']).toBe(`t=${T},v1=${expected}`);
  });

  test('same delivery, same webhook-id; the signatures change with the timestamp', () => {
    const secret = generateWebhookSecret();
    const first = headersAt(secret, T);
    const retry = headersAt(secret, T + 60);
    expect(retry['webhook-id']).toBe(first['webhook-id']);
    expect(retry['service-signature']).not.toBe(first['service-signature']);
    expect(retry['webhook-signature']).not.toBe(first['webhook-signature']);
  });

  test('refuses a timestamp that is not whole seconds', () => {
    expect(() => headersAt(generateWebhookSecret(), NOW.getTime() / 1000 + 0.5)).toThrow();
  });
});

describe('verifyServiceSignature (the four steps)', () => {
  const secret = generateWebhookSecret();
  const header = headersAt(secret, T)['service-signature']!;

  test('round trip', () => {
    expect(verifyServiceSignature({ secret, header, body: BODY, now: NOW })).toEqual({ ok: true, timestamp: T });
  });

  test('wrong secret', () => {
    expect(verifyServiceSignature({ secret: generateWebhookSecret(), header, body: BODY, now: NOW })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  test('tampered body (even one character, even whitespace)', () => {
    for (const body of [BODY.replace('delivered', 'bounced'), `${BODY} `, JSON.stringify(JSON.parse(BODY), null, 2)]) {
      expect(verifyServiceSignature({ secret, header, body, now: NOW })).toEqual({ ok: false, reason: 'signature_mismatch' });
    }
  });

  test('tampered t (the signature covers it)', () => {
    const forged = header.replace(`t=${T}`, `t=${T + 1}`);
    expect(verifyServiceSignature({ secret, header: forged, body: BODY, now: NOW })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  test('t older than 5 minutes is rejected, even with a valid signature', () => {
    const old = headersAt(secret, T - 301)['service-signature']!;
    expect(verifyServiceSignature({ secret, header: old, body: BODY, now: NOW })).toEqual({
      ok: false,
      reason: 'timestamp_outside_tolerance',
    });
  });

  test('t more than 5 minutes in the future is rejected', () => {
    const future = headersAt(secret, T + 301)['service-signature']!;
    expect(verifyServiceSignature({ secret, header: future, body: BODY, now: NOW })).toEqual({
      ok: false,
      reason: 'timestamp_outside_tolerance',
    });
    const far = headersAt(secret, T + 3600)['service-signature']!;
    expect(verifyServiceSignature({ secret, header: far, body: BODY, now: NOW }).ok).toBe(false);
  });

  test('within tolerance (either side, up to exactly 5 minutes) is accepted', () => {
    for (const offset of [-300, -299, -1, 0, 1, 299, 300]) {
      const h = headersAt(secret, T + offset)['service-signature']!;
      expect(verifyServiceSignature({ secret, header: h, body: BODY, now: NOW })).toEqual({ ok: true, timestamp: T + offset });
    }
  });

  test('a custom tolerance', () => {
    const h = headersAt(secret, T - 30)['service-signature']!;
    expect(verifyServiceSignature({ secret, header: h, body: BODY, now: NOW, toleranceSeconds: 10 }).ok).toBe(false);
  });

  test('several v1 values (rotation): one match is enough, in any position', () => {
    const other = 'a'.repeat(64);
    const v1 = header.split('v1=')[1]!;
    for (const h of [`t=${T},v1=${other},v1=${v1}`, `t=${T},v1=${v1},v1=${other}`, `t=${T}, v0=xyz, v1=${v1.toUpperCase()}`]) {
      expect(verifyServiceSignature({ secret, header: h, body: BODY, now: NOW }).ok).toBe(true);
    }
    expect(verifyServiceSignature({ secret, header: `t=${T},v1=${other}`, body: BODY, now: NOW }).ok).toBe(false);
  });

  test('malformed headers', () => {
    const v1 = header.split('v1=')[1]!;
    for (const h of [
      '',
      'garbage',
      `v1=${v1}`,
      `t=${T}`,
      `t=abc,v1=${v1}`,
      `t=${T},t=${T},v1=${v1}`,
      `t=${T},v1=${v1.slice(1)}`,
      `t=${T},v1=zz${v1.slice(2)}`,
      `t=-5,v1=${v1}`,
    ]) {
      expect(verifyServiceSignature({ secret, header: h, body: BODY, now: NOW })).toEqual({ ok: false, reason: 'malformed_header' });
    }
  });

  test('parseServiceSignature', () => {
    expect(parseServiceSignature(`t=12,v1=${'0'.repeat(64)}`)).toEqual({ timestamp: 12, signatures: ['0'.repeat(64)] });
  });
});

describe('Standard Webhooks headers verify with the reference library', () => {
  test('passes with the same secret, and fails on tamper', () => {
    const secret = generateWebhookSecret();
    const now = Math.floor(Date.now() / 1000); // the library checks against the real clock
    const headers = headersAt(secret, now);
    const webhook = new Webhook(secret);
    expect(webhook.verify(BODY, headers)).toEqual(JSON.parse(BODY));

    expect(() => webhook.verify(BODY.replace('msg_01', 'msg_02'), headers)).toThrow('No matching signature found');
    expect(() => webhook.verify(BODY, { ...headers, 'webhook-id': 'whd_other' })).toThrow('No matching signature found');
    expect(() => webhook.verify(BODY, { ...headers, 'webhook-timestamp': String(now - 1) })).toThrow('No matching signature found');
    expect(() => new Webhook(generateWebhookSecret()).verify(BODY, headers)).toThrow('No matching signature found');
  });

  test('the library refuses an old timestamp', () => {
    const secret = generateWebhookSecret();
    const headers = headersAt(secret, Math.floor(Date.now() / 1000) - 600);
    expect(() => new Webhook(secret).verify(BODY, headers)).toThrow('Message timestamp too old');
  });

  test('header names are case-insensitive for the library', () => {
    const secret = generateWebhookSecret();
    const headers = headersAt(secret, Math.floor(Date.now() / 1000));
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(() => new Webhook(secret).verify(BODY, upper)).not.toThrow();
  });
});

describe('signed with two secrets while a rotation overlaps (docs/webhooks.md, "Rotating the secret")', () => {
  const current = generateWebhookSecret();
  const previous = generateWebhookSecret();
  const now = Math.floor(Date.now() / 1000); // the library checks against the real clock
  const headers = signatureHeaders({ secrets: [current, previous], webhookId: 'whd_01JTEST', timestamp: now, body: BODY });

  test('each header carries one signature per secret, the current first', () => {
    expect(headers['service-signature']).toMatch(new RegExp(`^t=${now},v1=[0-9a-f]{64},v1=[0-9a-f]{64}$`));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    expect(headers['webhook-signature']!.split(' ')[0]).toBe(
      signatureHeaders({ secrets: [current], webhookId: 'whd_01JTEST', timestamp: now, body: BODY })['webhook-signature'],
    );
  });

  test('the unmodified standardwebhooks library verifies it with either secret, and refuses a third', () => {
    expect(new Webhook(current).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(new Webhook(previous).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(() => new Webhook(generateWebhookSecret()).verify(BODY, headers)).toThrow('No matching signature found');
  });

  test('a Stripe-style verifier of Service-Signature (any v1 matches) verifies it with either secret, and refuses a third', () => {
    const at = new Date(now * 1000);
    const verify = (secret: string) => verifyServiceSignature({ secret, header: headers['service-signature']!, body: BODY, now: at });
    expect(verify(current)).toEqual({ ok: true, timestamp: now });
    expect(verify(previous)).toEqual({ ok: true, timestamp: now });
    expect(verify(generateWebhookSecret())).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  test('no secret is refused', () => {
    expect(() => signatureHeaders({ secrets: [], webhookId: 'whd_01JTEST', timestamp: now, body: BODY })).toThrow('at least one secret');
  });
});
