/**
 * The link token (docs/tracking.md, "Link tokens"): `v2.<kid>.<sealed>.<tag>`, all URL-path safe, naming
 * nobody: what the link does (the account, the email, the recipient of an unsubscribe link, a click's
 * URL) is encrypted, so a forwarded link, a proxy's log or a referrer shows only opaque bytes.
 *
 * - `kid`: the link key's id (decimal, shared/adapters/store/link-keys.ts), so keys can rotate and old links
 *   keep working;
 * - the plaintext: compact JSON naming what the link does, `k` its kind: unsubscribe
 *   `{k:'u', a, e, r, s, c, t}` (account, email, recipient, scope, category, tenant id or null), open
 *   `{k:'o', a, e}`, click `{k:'c', a, e, u}` (the original URL);
 * - `tag`: base64url of the full HMAC-SHA256 (32 bytes), under the key's authentication subkey, of
 *   `v2.<kid>.` followed by the plaintext;
 * - `sealed`: base64url of the plaintext encrypted with AES-256-CTR under the key's encryption subkey, the
 *   tag's first 16 bytes as its counter block.
 * This is deterministic authenticated encryption (the SIV construction of RFC 5297 with HMAC-SHA256 as
 * its PRF): the same link under the same key gives the same token (a composed message is the same on a
 * retry), and a tag that holds proves both the plaintext and the key. Both subkeys come from the 32-byte
 * link key by HKDF-SHA256 (RFC 5869), one `info` each: no new secret, no write per email.
 *
 * Legacy `v1.<kid>.<payload>.<mac>` tokens (before 2026-11, in mail already sent) still resolve: their
 * payload is the same JSON in readable base64url, their `mac` the HMAC-SHA256 of `v1.<kid>.<payload>`
 * under the key itself. Nothing signs v1 any more.
 *
 * The tag or MAC is checked (constant time, on its canonical encoding: no second spelling verifies)
 * before the plaintext is parsed; the plaintext is then validated with zod. Tokens over 4 KB are refused
 * unread. Pure: keys are given by the caller.
 */
import { createCipheriv, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { CATEGORIES } from '../mail/category';
import { isId } from '../ids';
import type { ClickLink, OpenLink, UnsubscribeLink } from './link-urls';

/** The version every new token has. */
export const TOKEN_VERSION = 'v2';
/** Tokens of mail sent before opaque tokens: readable payload, still resolved. */
export const LEGACY_TOKEN_VERSION = 'v1';
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
export type SignedLink =
  | { kind: 'unsubscribe'; link: UnsubscribeLink }
  | { kind: 'open'; link: OpenLink }
  | { kind: 'click'; link: ClickLink };
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

const unsubscribePayload = z
  .object({
    k: z.literal('u'),
    a: accountId,
    e: emailId,
    r: z
      .string()
      .min(3)
      .max(320)
      .refine((address) => address.includes('@') && address === address.toLowerCase(), 'not a lower-cased address'),
    s: z.enum(['all', 'category']),
    c: z.enum(CATEGORIES),
    t: z.string().min(1).max(128).nullable(),
  })
  .refine((payload) => payload.s === 'all' || payload.c !== 'transactional', 'transactional mail has no category opt-out (scope all only)');
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
  if (kind === 'unsubscribe')
    return { k: 'u', a: link.accountId, e: link.emailId, r: link.recipient, s: link.scope, c: link.category, t: link.tenantId };
  if (kind === 'open') return { k: 'o', a: link.accountId, e: link.emailId };
  return { k: 'c', a: link.accountId, e: link.emailId, u: link.url };
}

function fromPayload(payload: Payload): SignedLink {
  if (payload.k === 'u') {
    return {
      kind: 'unsubscribe',
      link: { accountId: payload.a, emailId: payload.e, recipient: payload.r, scope: payload.s, category: payload.c, tenantId: payload.t },
    };
  }
  if (payload.k === 'o') return { kind: 'open', link: { accountId: payload.a, emailId: payload.e } };
  return { kind: 'click', link: { accountId: payload.a, emailId: payload.e, url: payload.u } };
}

function mac(secret: Buffer, signedPart: string | Buffer): string {
  return createHmac('sha256', secret).update(signedPart).digest('base64url');
}

/** The v2 subkeys of a link key (HKDF-SHA256, empty salt, one `info` each: two HMACs, microseconds). */
interface Subkeys {
  encryption: Buffer;
  authentication: Buffer;
}

function subkeysOf(secret: Buffer): Subkeys {
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), info, 32));
  return { encryption: derive('link-token v2 encryption'), authentication: derive('link-token v2 authentication') };
}

/** AES-256-CTR with the tag's first 16 bytes as the counter block: encrypts and decrypts alike. */
function ctr(key: Buffer, tag: Buffer, bytes: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-ctr', key, tag.subarray(0, 16));
  return Buffer.concat([cipher.update(bytes), cipher.final()]);
}

/** The tag of a v2 plaintext: HMAC-SHA256 of `v2.<kid>.` then the plaintext. */
function v2Tag(subkeys: Subkeys, kid: string, plaintext: Buffer): Buffer {
  return createHmac('sha256', subkeys.authentication).update(`${TOKEN_VERSION}.${kid}.`, 'utf8').update(plaintext).digest();
}

/**
 * The token of a link under a key. Throws when the link is not one the service would sign (an id of the
 * wrong kind, a URL that is not absolute http(s) or is over 2000 characters, a key that is not 32 bytes).
 */
export function encodeLinkToken(key: LinkKey, signed: SignedLink): string {
  if (!isKid(key.kid)) throw new Error(`Invalid link key id "${key.kid}"`);
  if (key.secret.length !== LINK_KEY_BYTES) throw new Error(`A link key must be ${LINK_KEY_BYTES} bytes`);
  const parsed = payloadSchema.safeParse(toPayload(signed));
  if (!parsed.success)
    throw new Error(
      `Cannot sign this ${signed.kind} link: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  const plaintext = Buffer.from(JSON.stringify(parsed.data), 'utf8');
  const subkeys = subkeysOf(key.secret);
  const tag = v2Tag(subkeys, key.kid, plaintext);
  const token = `${TOKEN_VERSION}.${key.kid}.${ctr(subkeys.encryption, tag, plaintext).toString('base64url')}.${tag.toString('base64url')}`;
  if (token.length > MAX_TOKEN_BYTES) throw new Error(`The ${signed.kind} link token would exceed ${MAX_TOKEN_BYTES} bytes`);
  return token;
}

/** A legacy v1 token (tests and the record of what mail sent before v2 carries): readable payload, HMAC. */
export function encodeLegacyLinkToken(key: LinkKey, signed: SignedLink): string {
  const parsed = payloadSchema.parse(toPayload(signed));
  const signedPart = `${LEGACY_TOKEN_VERSION}.${key.kid}.${Buffer.from(JSON.stringify(parsed), 'utf8').toString('base64url')}`;
  return `${signedPart}.${mac(key.secret, signedPart)}`;
}

interface TokenParts {
  version: typeof TOKEN_VERSION | typeof LEGACY_TOKEN_VERSION;
  kid: string;
  /** v1: the payload; v2: the sealed plaintext (base64url). */
  body: string;
  /** v1: the MAC; v2: the tag (base64url, 32 bytes). */
  tag: string;
}

function split(token: string): TokenParts | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_BYTES) return null;
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [version, kid, body, tag] = parts as [string, string, string, string];
  if (
    (version !== TOKEN_VERSION && version !== LEGACY_TOKEN_VERSION) ||
    !isKid(kid) ||
    !B64URL.test(body) ||
    tag.length !== MAC_LENGTH ||
    !B64URL.test(tag)
  )
    return null;
  return { version, kid, body, tag };
}

/** The key id a token names, or null when the token is malformed (nothing else is read). */
export function tokenKid(token: string): string | null {
  return split(token)?.kid ?? null;
}

function sameMac(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'ascii');
  const b = Buffer.from(given, 'ascii');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The plaintext of a token whose tag or MAC holds under `secret`, else null. */
function openToken(parts: TokenParts, secret: Buffer): Buffer | null {
  if (parts.version === LEGACY_TOKEN_VERSION) {
    const signedPart = `${parts.version}.${parts.kid}.${parts.body}`;
    return sameMac(mac(secret, signedPart), parts.tag) ? Buffer.from(parts.body, 'base64url') : null;
  }
  const subkeys = subkeysOf(secret);
  // The canonical spelling only: a tag whose last character has stray low bits would decode the same.
  const tag = Buffer.from(parts.tag, 'base64url');
  if (tag.toString('base64url') !== parts.tag) return null;
  const sealed = Buffer.from(parts.body, 'base64url');
  if (sealed.toString('base64url') !== parts.body) return null;
  const plaintext = ctr(subkeys.encryption, tag, sealed);
  return sameMac(v2Tag(subkeys, parts.kid, plaintext).toString('base64url'), parts.tag) ? plaintext : null;
}

/** Checks a token (v2, or a legacy v1) against the keys: the link it carries, or why not. */
export function verifyLinkToken(token: string, keys: LinkKeys): VerifiedToken {
  const parts = split(token);
  if (!parts) return { ok: false, failure: 'malformed' };
  const secret = typeof keys === 'function' ? keys(parts.kid) : keys.get(parts.kid);
  if (secret === undefined) return { ok: false, failure: 'unknown_key' };
  const plaintext = openToken(parts, secret);
  if (plaintext === null) return { ok: false, failure: 'bad_signature' };
  let json: unknown;
  try {
    json = JSON.parse(plaintext.toString('utf8'));
  } catch {
    return { ok: false, failure: 'malformed' };
  }
  const parsed = payloadSchema.safeParse(json);
  if (!parsed.success) return { ok: false, failure: 'malformed' };
  return { ok: true, kid: parts.kid, signed: fromPayload(parsed.data) };
}
