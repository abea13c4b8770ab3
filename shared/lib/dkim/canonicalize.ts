/**
 * DKIM canonicalization (RFC 6376 §3.4: "relaxed", and the selection of signed header fields) over raw
 * message bytes, for the signer (./sign.ts) and the probe's verifier (./verify.ts). Strings here are
 * latin1 ("binary"): one character per byte, so non-ASCII bytes pass through unchanged.
 */

export interface HeaderField {
  /** Lowercased field name. */
  key: string;
  /** The whole field, folding included, without its final line break. */
  line: string;
}

export interface SplitMessage {
  headers: HeaderField[];
  body: Buffer;
  /** Line break the message uses, so an added header matches it. */
  eol: '\r\n' | '\n';
}

/** Splits a message into its header fields and body (everything after the first empty line). */
export function splitMessage(raw: Buffer): SplitMessage {
  const text = raw.toString('latin1');
  const crlf = text.indexOf('\r\n\r\n');
  const lf = text.indexOf('\n\n');
  let headerEnd: number;
  let bodyStart: number;
  if (crlf >= 0 && (lf < 0 || crlf < lf)) [headerEnd, bodyStart] = [crlf, crlf + 4];
  else if (lf >= 0) [headerEnd, bodyStart] = [lf, lf + 2];
  else [headerEnd, bodyStart] = [text.length, text.length];

  const firstBreak = text.indexOf('\n');
  const eol = firstBreak > 0 && text[firstBreak - 1] === '\r' ? '\r\n' : firstBreak >= 0 ? '\n' : '\r\n';
  // latin1: character offsets are byte offsets.
  return { headers: parseHeaderFields(text.slice(0, headerEnd)), body: raw.subarray(bodyStart), eol };
}

/** Header fields in order; continuation lines (starting with SP or HTAB) belong to the field above. */
export function parseHeaderFields(headerText: string): HeaderField[] {
  const fields: HeaderField[] = [];
  for (const line of headerText.split(/\r?\n/)) {
    const last = fields[fields.length - 1];
    if ((line.startsWith(' ') || line.startsWith('\t')) && last) {
      last.line += `\r\n${line}`;
    } else if (line !== '') {
      const colon = line.indexOf(':');
      const key = (colon >= 0 ? line.slice(0, colon) : line).replace(/[ \t]+$/, '').toLowerCase();
      fields.push({ key, line });
    }
  }
  return fields;
}

/** `name:value` with the name lowercased, the value unfolded, whitespace runs as one space, trimmed. No line break. */
export function relaxedHeader(line: string): string {
  const colon = line.indexOf(':');
  const name = line
    .slice(0, colon)
    .replace(/[ \t]+$/, '')
    .toLowerCase();
  const value = line
    .slice(colon + 1)
    .replace(/\r?\n/g, '')
    .replace(/[ \t]+/g, ' ')
    // Only SP and HTAB are whitespace here: String#trim would also eat 0xA0, a byte of UTF-8 text.
    .replace(/^ | $/g, '');
  return `${name}:${value}`;
}

/** Relaxed body: whitespace runs as one space, no trailing whitespace on a line, no trailing empty lines, CRLF line ends. */
export function relaxedBody(body: Buffer): Buffer {
  const lines = body
    .toString('latin1')
    .split(/\r?\n/)
    .map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return Buffer.from(lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`, 'latin1');
}

/**
 * The signed header fields in h= order, each canonicalized by `canon` and ended by CRLF: each name takes
 * that field's instances from the bottom up (RFC 6376 §5.4.2); names with no instance left add nothing.
 */
export function canonicalHeaders(
  headers: readonly HeaderField[],
  signedNames: readonly string[],
  canon: (line: string) => string = relaxedHeader,
): string {
  const used = new Set<HeaderField>();
  let out = '';
  for (const name of signedNames) {
    for (let i = headers.length - 1; i >= 0; i--) {
      const field = headers[i]!;
      if (field.key === name && !used.has(field)) {
        used.add(field);
        out += `${canon(field.line)}\r\n`;
        break;
      }
    }
  }
  return out;
}
