/**
 * The signed link token (docs/tracking.md): `v1.<kid>.<payload>.<mac>`, all URL-path safe.
 *
 * - `kid`: the signing key's id (decimal, shared/adapters/store/link-keys.ts), so keys can rotate and old links
 *   keep verifying;
 * - `payload`: base64url of compact JSON naming what the link does, `k` its kind: unsubscribe
 *   `{k:'u', a, e, r, s, c, t}` (account, email, recipient, scope, category, tenant id or null), open
 *   `{k:'o', a, e}`, click `{k:'c', a, e, u}` (the original URL);
 * - `mac`: base64url of the full HMAC-SHA256 (32 bytes) of `v1.<kid>.<payload>` under the 32-byte key.
 *
 * The MAC is checked (constant time, on its canonical encoding: no second spelling of one MAC verifies)
 * before the payload is decoded; a payload is then validated with zod. Tokens over 4 KB are refused
 * unread. Pure: keys are given by the caller.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { CATEGORIES } from '../mail/category';
import { isId } from '../ids';
import type { ClickLink, OpenLink, UnsubscribeLink } from './link-urls';

export const TOKEN_VERSION = 'v1';
/** Longest token accepted (bytes of the path segment). */
export const MAX_TOKEN_BYTES = 4096;
/** Signing keys are 32 random bytes. */
export const LINK_KEY_BYTES = 32;
/** Longest URL a click link carries (longer links are left as they are by the transforms). */
export const MAX_LINK_URL_LENGTH = 2000;

/** A key id: a positive decimal counter without leading zeros (sortable once padded: keys.ts). */
const KID = /^[1-9][0-9]{0,9}$/;
const B64URL = /^[A-Za-z0-9_-]+$/;
/** 32 bytes in base64url without padding. */
const MAC_LENGTH = 43;

export type LinkKind = 'unsubscribe' | 'open' | 'click';

/** What a token says, by kind. */
export type SignedLink = { kind: 'unsubscribe'; link: UnsubscribeLink } | { kind: 'open'; link: OpenLink } | { kind: 'click'; link: ClickLink };
export type LinkOfKind<K extends LinkKind> = Extract<SignedLink, { kind: K }>['link'];

export type TokenFailure = 'malformed' | 'unknown_key' | 'bad_signature';
export type VerifiedToken = { ok: true; kid: string; signed: SignedLink } | { ok: false; failure: TokenFailure };

export interface LinkKey {
  kid: string;
  /** 32 bytes. */
  secret: Buffer;
}

/** Keys by kid: a map, or a lookup (undefined: not known). */
export type LinkKeys = ReadonlyMap<string, Buffer> | ((kid: string) => Buffer | undefined);

export function isKid(value: string): boolean {
  return KID.test(value);
}

export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const accountId = z.string().refine((id) => isId('acc', id), 'not an account id');
const emailId = z.string().refine((id) => isId('msg', id), 'not an email id');

const unsubscribePayload = z.object({
  k: z.literal('u'),
  a: accountId,
  e: emailId,
  r: z.string().min(3).max(320).refine((address) => address.includes('@') && address === address.toLowerCase(), 'not a lower-cased address'),
  s: z.enum(['all', 'category']),
  c: z.enum(CATEGORIES),
  t: z.string().min(1).max(128).nullable(),
}).refine((payload) => payload.s === 'all' || payload.c !== 'transactional', 'transactional mail has no category opt-out (scope all only)');
const openPayload = z.object({ k: z.literal('o'), a: accountId, e: emailId });
const clickPayload = z.object({
  k: z.literal('c'),
  a: accountId,
  e: emailId,
  u: z.string().max(MAX_LINK_URL_LENGTH).refine(isHttpUrl, 'not an absolute http(s) URL'),
});
const payloadSchema = z.discriminatedUnion('k', [unsubscribePayload, openPayload, clickPayload]);
type Payload = z.output<typeof payloadSchema>;

function toPayload(signed: SignedLink): Payload {
  const { kind, link } = signed;
  if (kind === 'unsubscribe') return { k: 'u', a: link.accountId, e: link.emailId, r: link.recipient, s: link.scope, c: link.category, t: link.tenantId };
  if (kind === 'open') return { k: 'o', a: link.accountId, e: link.emailId };
  return { k: 'c', a: link.accountId, e: link.emailId, u: link.url };
}

function fromPayload(payload: Payload): SignedLink {
  if (payload.k === 'u') {
    return { kind: 'unsubscribe', link: { accountId: payload.a, emailId: payload.e, recipient: payload.r, scope: payload.s, category: payload.c, tenantId: payload.t } };
  }
  if (payload.k === 'o') return { kind: 'open', link: { accountId: payload.a, emailId: payload.e } };
  return { kind: 'click', link: { accountId: payload.a, emailId: payload.e, url: payload.u } };
}

function mac(secret: Buffer, signedPart: string): string {
  return createHmac('sha256', secret).update(signedPart, 'utf8').digest('base64url');
}

/**
 * The token of a link under a key. Throws when the link is not one the service would sign (an id of the
 * wrong kind, a URL that is not absolute http(s) or is over 2000 characters, a key that is not 32 bytes).
 */
export function encodeLinkToken(key: LinkKey, signed: SignedLink): string {
  if (!isKid(key.kid)) throw new Error(`Invalid link key id "${key.kid}"`);
  if (key.secret.length !== LINK_KEY_BYTES) throw new Error(`A link key must be ${LINK_KEY_BYTES} bytes`);
  const parsed = payloadSchema.safeParse(toPayload(signed));
  if (!parsed.success) throw new Error(`Cannot sign this ${signed.kind} link: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  const signedPart = `${TOKEN_VERSION}.${key.kid}.${Buffer.from(JSON.stringify(parsed.data), 'utf8').toString('base64url')}`;
  const token = `${signedPart}.${mac(key.secret, signedPart)}`;
  if (token.length > MAX_TOKEN_BYTES) throw new Error(`The ${signed.kind} link token would exceed ${MAX_TOKEN_BYTES} bytes`);
  return token;
}

interface TokenParts {
  kid: string;
  signedPart: string;
  payload: string;
  mac: string;
}

function split(token: string): TokenParts | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_BYTES) return null;
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [version, kid, payload, tag] = parts as [string, string, string, string];
  if (version !== TOKEN_VERSION || !isKid(kid) || !B64URL.test(payload) || tag.length !== MAC_LENGTH || !B64URL.test(tag)) return null;
  return { kid, signedPart: `${version}.${kid}.${payload}`, payload, mac: tag };
}

/** The key id a token names, or null when the token is malformed (nothing else is read). */
export function tokenKid(token: string): string | null {
  return split(token)?.kid ?? null;
}

/** Checks a token against the keys: the link it signs, or why not. */
export function verifyLinkToken(token: string, keys: LinkKeys): VerifiedToken {
  const parts = split(token);
  if (!parts) return { ok: false, failure: 'malformed' };
  const secret = typeof keys === 'function' ? keys(parts.kid) : keys.get(parts.kid);
  if (secret === undefined) return { ok: false, failure: 'unknown_key' };
  const expected = Buffer.from(mac(secret, parts.signedPart), 'ascii');
  const given = Buffer.from(parts.mac, 'ascii');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, failure: 'bad_signature' };
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(parts.payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, failure: 'malformed' };
  }
  const parsed = payloadSchema.safeParse(json);
  if (!parsed.success) return { ok: false, failure: 'malformed' };
  return { ok: true, kid: parts.kid, signed: fromPayload(parsed.data) };
}
