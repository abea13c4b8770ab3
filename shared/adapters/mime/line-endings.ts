/**
 * Canonical line endings (RFC 5322 section 2.3: CR and LF appear only together, as CRLF): every bare LF,
 * bare CR and CRLF becomes CRLF. Applied to every message the send worker hands to the provider
 * (composed or relayed), so receivers hardened against SMTP smuggling never see a bare LF and DKIM
 * verifiers canonicalize the body as the signer did (docs/deliverability.md, "What every message looks like").
 */
const CR = 0x0d;
const LF = 0x0a;

/** True when `bytes` hold a CR not followed by LF, or an LF not preceded by CR. */
export function hasBareLineBreak(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === CR && bytes[i + 1] !== LF) return true;
    if (c === LF && (i === 0 || bytes[i - 1] !== CR)) return true;
  }
  return false;
}

/** The message with every line break as CRLF; the same Buffer when it already is canonical. */
export function canonicalLineEndings(bytes: Buffer): Buffer {
  if (!hasBareLineBreak(bytes)) return bytes;
  const out = Buffer.allocUnsafe(bytes.length * 2);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === CR) {
      out[n++] = CR;
      out[n++] = LF;
      if (bytes[i + 1] === LF) i++;
    } else if (c === LF) {
      out[n++] = CR;
      out[n++] = LF;
    } else out[n++] = c;
  }
  return out.subarray(0, n);
}

/**
 * Text with every line break (CRLF, CR, LF) as CRLF: a body's canonical form (RFC 2046 section 4.1.1),
 * which base64 carries as it is (a decoded text part has CRLF lines too).
 */
export function crlfLineEndings(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '\r\n');
}
