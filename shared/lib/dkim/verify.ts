/**
 * A small DKIM verifier (RFC 6376: rsa-sha256 and rsa-sha1, simple and relaxed canonicalization, l=,
 * x=), for the domain check's signing probe (shared/usecases/domains/verify.ts: a message signed with the
 * domain's key must verify against the key published in DNS). Its statuses are mailauth's made stricter
 * where RFC 6376 says a signature fails for good (a changed body is `fail`; no key, an unusable key
 * record or a key under 1024 bits `permerror`); the unit tests check it answers exactly as mailauth does
 * through test/support/mailauth-dkim.ts (test/unit/dkim/verify.test.ts, and random signed messages:
 * verify-property.test.ts), but for an empty `l=`, which mailauth's signer writes for a limit of 0 and its
 * verifier reads as no limit: a malformed tag, so `permerror` here (RFC 6376 3.5).
 *
 * Why not mailauth here: its verifier brings ~1.1 MB of dependencies (charset tables, joi, the public
 * suffix list) into every bundle that imports it (the domains group, the dashboard, ...), for a check of
 * our own signature. The MX listener (a container, no bundle limit), which verifies other people's mail,
 * keeps mailauth (shared/doors/mx/check-authentication.ts); tests verify what we send with it (an
 * independent verifier).
 */
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { canonicalHeaders, relaxedBody, relaxedHeader, splitMessage, type HeaderField } from './canonicalize';

export type DkimStatus = 'pass' | 'fail' | 'neutral' | 'temperror' | 'permerror' | 'none';

export interface DkimVerification {
  status: DkimStatus;
  domain?: string;
  selector?: string;
  reason?: string;
}

/** A TXT lookup shaped like node:dns `resolveTxt`: records, each a list of character-strings. Rejects with ENOTFOUND/ENODATA when there is none. */
export type ResolveTxt = (name: string) => Promise<string[][]>;

/** Smallest RSA key accepted, as mailauth's default (smaller: permerror "weak key"). */
const MIN_KEY_BITS = 1024;

interface Signature {
  domain: string;
  selector: string;
  hash: 'sha256' | 'sha1';
  headerCanon: 'simple' | 'relaxed';
  bodyCanon: 'simple' | 'relaxed';
  signedNames: string[];
  bodyHash: string;
  signature: string;
  bodyLength: number | null;
  signed: number | null;
  expires: number | null;
  field: HeaderField;
}

/** One result per DKIM-Signature field, in message order (a single `none` when the message is unsigned). */
export async function verifySignatures(raw: Buffer, resolveTxt: ResolveTxt, now: Date = new Date()): Promise<DkimVerification[]> {
  const { headers, body } = splitMessage(raw);
  const fields = headers.filter((field) => field.key === 'dkim-signature');
  if (fields.length === 0) return [{ status: 'none', reason: 'message not signed' }];
  return Promise.all(fields.map((field) => verifyOne(field, headers, body, resolveTxt, now)));
}

async function verifyOne(
  field: HeaderField,
  headers: HeaderField[],
  body: Buffer,
  resolveTxt: ResolveTxt,
  now: Date,
): Promise<DkimVerification> {
  const signature = parseSignature(field);
  if (typeof signature === 'string') return { status: 'permerror', reason: signature };
  const where = { domain: signature.domain, selector: signature.selector };

  if (computeBodyHash(body, signature) !== signature.bodyHash) return { status: 'fail', ...where, reason: 'body hash did not verify' };

  const key = await publicKey(`${signature.selector}._domainkey.${signature.domain}`, resolveTxt);
  if ('status' in key) return { ...key, ...where };

  const data = Buffer.from(signedHeaderData(headers, signature), 'latin1');
  let valid: boolean;
  try {
    valid = verify(signature.hash, data, key.key, Buffer.from(signature.signature, 'base64'));
  } catch (error) {
    return { status: 'neutral', ...where, reason: (error as Error).message };
  }
  if (!valid) return { status: 'fail', ...where, reason: 'bad signature' };
  if (signature.expires !== null && signature.signed !== null && signature.expires < signature.signed)
    return { status: 'neutral', ...where, reason: 'invalid expiration' };
  if (signature.expires !== null && signature.expires * 1000 < now.getTime()) return { status: 'neutral', ...where, reason: 'expired' };
  return { status: 'pass', ...where };
}

/** The tags of a DKIM-Signature field, or why it cannot be verified. */
function parseSignature(field: HeaderField): Signature | string {
  const tags = parseTags(field.line.slice(field.line.indexOf(':') + 1));
  const compact = (name: string) => tags.get(name)?.replace(/[ \t\r\n]+/g, '');
  if (tags.get('v') !== '1') return 'unsupported signature version';
  const algorithm = /^rsa-(sha256|sha1)$/.exec((tags.get('a') ?? '').toLowerCase());
  if (!algorithm) return 'unsupported algorithm';
  const [headerCanon = 'simple', bodyCanon = 'simple'] = (tags.get('c') ?? 'simple/simple').toLowerCase().split('/');
  if (!isCanon(headerCanon) || !isCanon(bodyCanon)) return 'unsupported canonicalization';
  const domain = tags.get('d');
  const selector = tags.get('s');
  const signedNames = (tags.get('h') ?? '')
    .split(':')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const bodyHash = compact('bh');
  const signature = compact('b');
  if (!domain || !selector || !bodyHash || !signature || !signedNames.includes('from')) return 'invalid signature header';
  // RFC 6376 3.5: l=, t= and x= are decimal digits; anything else (an empty `l=` too) is a malformed signature.
  const digits = (name: string) => (tags.has(name) ? (/^\d+$/.test(tags.get(name)!) ? Number(tags.get(name)) : NaN) : null);
  const bodyLength = digits('l');
  const signed = digits('t');
  const expires = digits('x');
  if ([bodyLength, signed, expires].some((n) => n !== null && !Number.isSafeInteger(n))) return 'invalid signature header';
  return {
    domain,
    selector,
    hash: algorithm[1] as 'sha256' | 'sha1',
    headerCanon,
    bodyCanon,
    signedNames,
    bodyHash,
    signature,
    bodyLength,
    signed,
    expires,
    field,
  };
}

function isCanon(value: string): value is 'simple' | 'relaxed' {
  return value === 'simple' || value === 'relaxed';
}

/** `name=value; ...` (RFC 6376 3.2): names lower-cased, values unfolded and trimmed. */
function parseTags(text: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of text.replace(/\r?\n(?=[ \t])/g, '').split(';')) {
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    tags.set(part.slice(0, equals).trim().toLowerCase(), part.slice(equals + 1).trim());
  }
  return tags;
}

function computeBodyHash(body: Buffer, signature: Signature): string {
  let canonical = signature.bodyCanon === 'relaxed' ? relaxedBody(body) : simpleBody(body);
  if (signature.bodyLength !== null) canonical = canonical.subarray(0, signature.bodyLength);
  return createHash(signature.hash).update(canonical).digest('base64');
}

/** Simple body: CRLF line ends, trailing empty lines removed, one CRLF at the end (an empty body is CRLF). */
function simpleBody(body: Buffer): Buffer {
  const text = body
    .toString('latin1')
    .replace(/\r?\n/g, '\r\n')
    .replace(/(\r\n)*$/, '');
  return Buffer.from(`${text}\r\n`, 'latin1');
}

/** The signed fields in h= order, then the signature field with an empty b= (no line break after it). */
function signedHeaderData(headers: HeaderField[], signature: Signature): string {
  const canon = (line: string) => (signature.headerCanon === 'relaxed' ? relaxedHeader(line) : line);
  return (
    canonicalHeaders(headers, signature.signedNames, canon) +
    canon(signature.field.line.replace(/((?:^|[;:])[ \t\r\n]*b[ \t\r\n]*=)[^;]*/i, '$1'))
  );
}

/** The key published at `name`, or the result when there is no usable one (worded as mailauth's, test/support/mailauth-dkim.ts). */
async function publicKey(
  name: string,
  resolveTxt: ResolveTxt,
): Promise<{ key: KeyObject } | Omit<DkimVerification, 'domain' | 'selector'>> {
  let records: string[][];
  try {
    records = await resolveTxt(name);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return { status: 'permerror', reason: 'no key for signature' };
    return { status: 'temperror', reason: `DNS failure: ${code || (error as Error).message}` };
  }
  // A record that looks like a key first: only the first is read (as mailauth does).
  const looksLikeKey = (record: string[]): boolean => /(^|;)\s*p=/.test(record.join(''));
  const first = [...records.filter(looksLikeKey), ...records.filter((r) => !looksLikeKey(r))][0];
  const record = (first ?? []).join('').replace(/\s+/g, '');
  const tags = parseTags(record);
  const value = tags.get('p');
  if (!value || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return { status: 'permerror', reason: 'invalid public key' };
  if (tags.has('v') && tags.get('v')!.toLowerCase() !== 'dkim1') return { status: 'permerror', reason: 'unknown key version' };
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(value, 'base64'), format: 'der', type: 'spki' });
  } catch {
    return { status: 'permerror', reason: 'unknown key type' };
  }
  if (key.asymmetricKeyType !== 'rsa' || (tags.has('k') && tags.get('k')!.toLowerCase() !== 'rsa'))
    return { status: 'permerror', reason: 'unknown key type' };
  if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_KEY_BITS) return { status: 'permerror', reason: 'weak key' };
  return { key };
}
