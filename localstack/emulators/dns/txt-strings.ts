/**
 * TXT RDATA is one or more character-strings of at most 255 bytes each (RFC 1035 3.3.14, 3.3); dns-packet
 * writes the strings it is given but does not split text. Splits UTF-8 text into such strings, never
 * inside a multi-byte character (so every string decodes on its own). Empty text is one empty string.
 */
const MAX_STRING_BYTES = 255;

export function txtStrings(text: string): Buffer[] {
  const strings: Buffer[] = [];
  let current: Buffer[] = [];
  let size = 0;
  for (const ch of text) {
    const bytes = Buffer.from(ch, 'utf8');
    if (size + bytes.length > MAX_STRING_BYTES) {
      strings.push(Buffer.concat(current));
      current = [];
      size = 0;
    }
    current.push(bytes);
    size += bytes.length;
  }
  strings.push(Buffer.concat(current));
  return strings;
}
