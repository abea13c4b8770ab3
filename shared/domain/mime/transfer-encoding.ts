/**
 * A MIME part's body from its Content-Transfer-Encoding: base64 and quoted-printable decoded, anything
 * else (7bit, 8bit, binary, unknown) as it is. Both decoders are one pass over the bytes.
 */

export function decodeTransferEncoding(body: Buffer, encoding: string): Buffer {
  if (encoding === 'base64') return decodeBase64(body);
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

/** 1 for the bytes of the base64 alphabet, 0 for the others. */
const BASE64_ALPHABET = new Uint8Array(256);
for (const character of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64_ALPHABET[character.charCodeAt(0)] = 1;

/**
 * The length of decodeTransferEncoding(body, encoding), without the decoded copy for base64 (the bulk of
 * a message's attachments): the alphabet's characters before the first `=`, six bits each.
 */
export function decodedSize(body: Buffer, encoding: string): number {
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body).length;
  if (encoding !== 'base64') return body.length;
  const padding = body.indexOf(0x3d);
  const end = padding < 0 ? body.length : padding;
  let characters = 0;
  for (let i = 0; i < end; i++) characters += BASE64_ALPHABET[body[i]!]!;
  return Math.floor((characters * 3) / 4);
}

/**
 * Characters outside the base64 alphabet (line breaks, spaces, junk) are skipped, as mailparser does; the
 * data ends at the first `=` (RFC 2045 6.8: padding is only at the end). mailparser's streaming decoder
 * goes on after padding in a later chunk, which only matters for broken data (a part that took in the
 * rest of the message when a delimiter was missing).
 */
function decodeBase64(body: Buffer): Buffer {
  return Buffer.from(body.toString('latin1').replace(/[^A-Za-z0-9+/=]+/g, ''), 'base64');
}

/**
 * RFC 2045 6.7: `=XX` is a byte, `=` at the end of a line a soft line break, spaces and tabs at the end of
 * a line are dropped; an `=` not followed by two hex digits stays as it is. 8-bit bytes pass through.
 */
function decodeQuotedPrintable(body: Buffer): Buffer {
  const out = Buffer.alloc(body.length);
  let length = 0;
  // Spaces and tabs seen but not written yet: dropped if the line ends after them.
  let blanks = 0;
  const flushBlanks = (at: number) => {
    for (let j = at - blanks; j < at; j++) out[length++] = body[j]!;
    blanks = 0;
  };
  for (let i = 0; i < body.length; i++) {
    const byte = body[i]!;
    if (byte === 0x20 || byte === 0x09) {
      blanks++;
      continue;
    }
    if (byte === 0x0d && body[i + 1] === 0x0a) {
      blanks = 0;
      out[length++] = 0x0d;
      out[length++] = 0x0a;
      i++;
      continue;
    }
    if (byte === 0x0a) {
      blanks = 0;
      out[length++] = 0x0a;
      continue;
    }
    flushBlanks(i);
    if (byte !== 0x3d) {
      out[length++] = byte;
      continue;
    }
    const high = hexValue(body[i + 1]);
    const low = high >= 0 ? hexValue(body[i + 2]) : -1;
    if (low >= 0) {
      out[length++] = high * 16 + low;
      i += 2;
      continue;
    }
    // A soft line break: `=`, optional blanks, then the end of the line (or of the body).
    let j = i + 1;
    while (body[j] === 0x20 || body[j] === 0x09) j++;
    if (j >= body.length || body[j] === 0x0a || (body[j] === 0x0d && body[j + 1] === 0x0a)) {
      i = j >= body.length ? j : body[j] === 0x0a ? j : j + 1;
      continue;
    }
    out[length++] = byte;
  }
  // Blanks at the very end are at the end of a line too.
  return out.subarray(0, length);
}

export function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}
