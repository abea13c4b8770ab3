/**
 * TXT values in DNS hosts' presentation format: one or more double-quoted character-strings of at most
 * 255 bytes, separated by spaces, with `"` and `\` escaped (`\"`, `\\`) and `\DDD` decimal escapes
 * (RFC 1035 5.1). Route 53 takes and answers every TXT value so; Cloudflare takes it so (and splits
 * longer unquoted content itself) and answers what it stored, quoted or not. We speak of the text itself
 * (the strings joined, as a resolver's answer joined), so these two convert.
 */

const MAX_STRING_BYTES = 255;

/** `text` as quoted character-strings of at most 255 bytes each (never splitting a character). */
export function quoteTxt(text: string): string {
  const strings: string[] = [];
  let current = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > MAX_STRING_BYTES) {
      strings.push(current);
      current = '';
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  strings.push(current);
  return strings.map((s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(' ');
}

/**
 * The text of a TXT value in presentation format: quoted strings joined (escapes resolved); a value
 * that does not start with a quote is taken as it is (Cloudflare keeps unquoted content).
 */
export function unquoteTxt(value: string): string {
  const trimmed = value.trim();
  if (!trimmed.startsWith('"')) return trimmed;
  const bytes: number[] = [];
  let i = 0;
  let inString = false;
  while (i < trimmed.length) {
    const char = trimmed[i]!;
    if (!inString) {
      if (char === '"') inString = true;
      else if (!/\s/.test(char)) {
        // Unquoted text between strings: kept as is.
        bytes.push(...Buffer.from(char));
      }
      i += 1;
      continue;
    }
    if (char === '"') {
      inString = false;
      i += 1;
      continue;
    }
    if (char === '\\' && i + 1 < trimmed.length) {
      const digits = /^\d{3}/.exec(trimmed.slice(i + 1));
      if (digits) {
        bytes.push(Number(digits[0]) & 0xff);
        i += 4;
        continue;
      }
      bytes.push(...Buffer.from(trimmed[i + 1]!));
      i += 2;
      continue;
    }
    const code = trimmed.codePointAt(i)!;
    const text = String.fromCodePoint(code);
    bytes.push(...Buffer.from(text));
    i += text.length;
  }
  return Buffer.from(bytes).toString('utf8');
}
