/**
 * DKIM signing (RFC 6376): rsa-sha256, relaxed/relaxed, From over-signed.
 *
 * Why not mailauth's or nodemailer's signer: neither can over-sign (both list each header name once
 * per present field), and over-signing From is what stops a second From being added above a signed
 * message. The canonicalization is small (./canonicalize.ts); the tests check every signature with
 * mailauth's verifier, an independent implementation.
 */
import { createHash, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { isValidSelector } from './keys';
import { canonicalHeaders, relaxedBody, relaxedHeader, splitMessage, type HeaderField } from './canonicalize';

/**
 * Header fields signed by default, when present. Not Date and Message-ID: SES overwrites both on
 * SendRawEmail, which would break the signature (AWS: "Don't sign the following fields: Message-ID,
 * Date, Return-Path, Bounces-To"). Pass `headers` to sign a different list.
 */
export const DEFAULT_SIGNED_HEADERS: readonly string[] = [
  'from',
  'to',
  'cc',
  'subject',
  'reply-to',
  'mime-version',
  'content-type',
  'list-unsubscribe',
  'list-unsubscribe-post',
];

/** Signed once more than they occur, so adding one invalidates the signature. From is always signed. */
export const OVERSIGNED_HEADERS: readonly string[] = ['from'];

export interface SignDkimInput {
  raw: Buffer;
  /** d=: the signing domain (the From domain for DMARC alignment). */
  domain: string;
  /** s=: the key's selector, published at `<selector>._domainkey.<domain>`. */
  selector: string;
  /** The key as PEM, or already parsed (a KeyObject, for a caller that signs often and parses it once). */
  privateKeyPem?: string;
  privateKey?: KeyObject;
  /** Header field names to sign; default DEFAULT_SIGNED_HEADERS. */
  headers?: readonly string[];
  /** t=; default now. */
  signTime?: Date;
}

const MAX_LINE = 76;

/** Returns the message with a DKIM-Signature header prepended. Throws on an invalid domain, selector or key, or a message without From. */
export async function signDkim(input: SignDkimInput): Promise<Buffer> {
  const domain = input.domain.toLowerCase();
  if (!isValidDomain(domain)) throw new Error(`Invalid DKIM signing domain "${input.domain}"`);
  if (!input.selector.split('.').every(isValidSelector)) throw new Error(`Invalid DKIM selector "${input.selector}"`);
  if (!input.privateKey && input.privateKeyPem === undefined) throw new Error('A DKIM key is required');
  const key = input.privateKey ?? createPrivateKey(input.privateKeyPem!);
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`DKIM key must be RSA, got ${key.asymmetricKeyType}`);

  const { headers, body, eol } = splitMessage(input.raw);
  if (!headers.some((h) => h.key === 'from')) throw new Error('Cannot DKIM-sign a message without a From header');

  const signedNames = headerList(headers, input.headers ?? DEFAULT_SIGNED_HEADERS);
  const bodyHash = createHash('sha256').update(relaxedBody(body)).digest('base64');
  const time = Math.floor((input.signTime ?? new Date()).getTime() / 1000);

  const folder = new Folder(eol);
  for (const tag of [`v=1;`, `a=rsa-sha256;`, `c=relaxed/relaxed;`, `d=${domain};`, `s=${input.selector};`, `t=${time};`])
    folder.add(tag, ' ');
  // FWS is allowed around the colons of h=, so a long list folds between names.
  signedNames.forEach((name, i) => {
    folder.add(`${i === 0 ? 'h=' : ''}${name}${i === signedNames.length - 1 ? ';' : ':'}`, i === 0 ? ' ' : '');
  });
  folder.add(`bh=${bodyHash};`, ' ');
  folder.add('b=', ' ');
  const unsigned = folder.text();

  const data = `${canonicalHeaders(headers, signedNames)}${relaxedHeader(unsigned)}`;
  const signature = sign('sha256', Buffer.from(data, 'latin1'), key).toString('base64');
  folder.addSplittable(signature);
  return Buffer.concat([Buffer.from(`${folder.text()}${eol}`, 'latin1'), input.raw]);
}

/** h=: each wanted name as many times as it occurs (bottom-up selection covers them all), over-signed names once more. */
function headerList(headers: HeaderField[], wanted: readonly string[]): string[] {
  const names = [...new Set(['from', ...wanted.map((n) => n.toLowerCase())])];
  return names.flatMap((name) => {
    const count = headers.filter((h) => h.key === name).length + (OVERSIGNED_HEADERS.includes(name) ? 1 : 0);
    return Array<string>(count).fill(name);
  });
}

function isValidDomain(domain: string): boolean {
  return domain.length <= 253 && domain.split('.').length >= 2 && domain.split('.').every(isValidSelector);
}

/** Builds a folded header field, lines of at most MAX_LINE characters. */
class Folder {
  private readonly lines: string[] = ['DKIM-Signature:'];

  constructor(private readonly eol: string) {}

  /** Adds a piece after `separator`, or on a new (continuation) line when it does not fit. */
  add(piece: string, separator: ' ' | ''): void {
    const current = this.lines[this.lines.length - 1]!;
    if (current.length + separator.length + piece.length > MAX_LINE && current.trim() !== '') this.lines.push(` ${piece}`);
    else this.lines[this.lines.length - 1] = current + separator + piece;
  }

  /** Appends a value that may be split anywhere (base64 tolerates FWS), filling lines. */
  addSplittable(value: string): void {
    let rest = value;
    while (rest.length > 0) {
      const current = this.lines[this.lines.length - 1]!;
      const room = MAX_LINE - current.length;
      if (room <= 0) {
        this.lines.push(' ');
        continue;
      }
      this.lines[this.lines.length - 1] = current + rest.slice(0, room);
      rest = rest.slice(room);
    }
  }

  text(): string {
    return this.lines.join(this.eol);
  }
}
