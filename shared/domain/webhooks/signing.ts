/**
 * Webhook signatures (pure). Every delivery carries two independent signatures over the exact body:
 *
 * - `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, the product's own
 *   scheme. Its HMAC key is the WHOLE secret string, `whsec_…` prefix included, as UTF-8 bytes: a
 *   receiver following the spec's four steps literally (take the secret as shown, HMAC with it) gets it
 *   right with any HMAC API, no base64 step to forget.
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`), exactly as
 *   that specification defines: HMAC-SHA256 over `<id>.<timestamp>.<body>` keyed with the base64-DECODED
 *   part after `whsec_`, so receivers can use the existing libraries with the same secret.
 *
 * The secret is `whsec_<base64 of 32 random bytes>` (Standard Webhooks' format). While a rotated endpoint's
 * previous secret still signs (./secret-rotation.ts), each header carries one signature per secret, the
 * current first: `t=..,v1=<current>,v1=<previous>` and `v1,<current> v1,<previous>` (Standard Webhooks'
 * space-separated list); a receiver holding either secret verifies the delivery.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** The spec's replay window: a signature whose t is further than this from the receiver's clock is refused. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The Standard Webhooks key: the base64-decoded part after `whsec_`. */
export function standardWebhooksKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('webhook secret has an empty key');
  return key;
}

/** The Service-Signature's v1 value: hex HMAC-SHA256 of `<t>.<body>` keyed with the secret string (UTF-8). */
export function serviceSignatureValue(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

export interface SignatureInput {
  /** The secrets that sign, the current first (the previous one too while a rotation's overlap lasts). */
  secrets: readonly string[];
  /** Stays the same across retries of one delivery (Standard Webhooks' idempotency key). */
  webhookId: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
  /** The exact body sent. */
  body: string;
}

/** The four headers of one attempt, names in lower case: one signature per secret in each signature header. */
export function signatureHeaders({ secrets, webhookId, timestamp, body }: SignatureInput): Record<string, string> {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new Error('timestamp must be whole unix seconds');
  if (secrets.length === 0) throw new Error('a delivery is signed with at least one secret');
  const standard = (secret: string) =>
    createHmac('sha256', standardWebhooksKey(secret)).update(`${webhookId}.${timestamp}.${body}`, 'utf8').digest('base64');
  return {
    'service-signature': [`t=${timestamp}`, ...secrets.map((secret) => `v1=${serviceSignatureValue(secret, timestamp, body)}`)].join(','),
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => `v1,${standard(secret)}`).join(' '),
  };
}

export type VerifyResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'malformed_header' | 'timestamp_outside_tolerance' | 'signature_mismatch' };

export interface VerifyInput {
  secret: string;
  /** The Service-Signature header's value. */
  header: string;
  /** The raw body string, before any JSON parsing. */
  body: string;
  now: Date;
  toleranceSeconds?: number;
}

/**
 * The receiver's side of Service-Signature, the spec's four steps: (1) the raw body; (2) parse t and v1;
 * (3) refuse when t differs from `now` by more than the tolerance (either direction; exactly the
 * tolerance is accepted); (4) HMAC-SHA256 of `<t>.<body>` keyed with the secret string, compared to v1 in
 * constant time. The header may carry several v1 values (`t=..,v1=a,v1=b`): one match is enough, which
 * lets a rotation sign with the new and the previous secret at once. Unknown keys (v0, v2, ...)
 * are ignored; exactly one t is required.
 */
export function verifyServiceSignature({
  secret,
  header,
  body,
  now,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
}: VerifyInput): VerifyResult {
  const parsed = parseServiceSignature(header);
  if (!parsed) return { ok: false, reason: 'malformed_header' };
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) {
    return { ok: false, reason: 'timestamp_outside_tolerance' };
  }
  const expected = Buffer.from(serviceSignatureValue(secret, parsed.timestamp, body), 'hex');
  let matched = false;
  for (const candidate of parsed.signatures) {
    // Every candidate is compared (no early exit), each in constant time over 32 bytes.
    if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) matched = true;
  }
  return matched ? { ok: true, timestamp: parsed.timestamp } : { ok: false, reason: 'signature_mismatch' };
}

/** `t=<digits>` once and at least one `v1=<64 hex>`; null when malformed. */
export function parseServiceSignature(header: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== null || !/^\d{1,15}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) return null;
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === null || signatures.length === 0) return null;
  return { timestamp, signatures };
}
