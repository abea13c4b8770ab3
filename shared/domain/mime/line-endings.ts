/**
 * Canonical line endings (RFC 5322 section 2.3: CR and LF appear only together, as CRLF): every bare LF,
 * bare CR and CRLF becomes CRLF. The composer writes its bodies with crlfLineEndings; the send worker
 * applies canonicalLineEndings to relayed messages (a composed one is CRLF already), so receivers hardened against SMTP smuggling never see a bare LF and DKIM
 * verifiers canonicalize the body as the signer did (docs/deliverability.md, "What every message looks like").
 */
/** A CR not followed by LF, or an LF not preceded by CR (no backtracking: one look each way). */
const BARE = /\r(?!\n)|(?<!\r)\n/;

/** True when `bytes` hold a bare CR or a bare LF. */
export function hasBareLineBreak(bytes: Buffer): boolean {
  return BARE.test(bytes.toString('latin1'));
}

/** The message with every line break as CRLF; the same Buffer when it already is canonical. */
export function canonicalLineEndings(bytes: Buffer): Buffer {
  const text = bytes.toString('latin1');
  return BARE.test(text) ? Buffer.from(crlfLineEndings(text), 'latin1') : bytes;
}

/**
 * Text with every line break (CRLF, CR, LF) as CRLF: a body's canonical form (RFC 2046 section 4.1.1),
 * which base64 carries as it is (a decoded text part has CRLF lines too).
 */
export function crlfLineEndings(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '\r\n');
}
