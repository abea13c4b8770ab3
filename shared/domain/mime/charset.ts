/**
 * Bytes to text in a MIME charset, with the WHATWG TextDecoder of node:util (Node's full ICU knows the
 * charsets mail uses: iso-8859-*, windows-125x, koi8-r/u, gbk/gb18030, big5, shift_jis, euc-jp,
 * iso-2022-jp, euc-kr, utf-16...) instead of iconv-lite's tables. Rules:
 *
 * - no charset, us-ascii (and its aliases) and utf-8 are read as UTF-8, as mailparser does (8-bit text
 *   labelled ASCII is UTF-8 in practice); a byte order mark is kept, as mailparser keeps it;
 * - windows-1252 is decoded here: Node's decoder reads it as ISO-8859-1 (0x80-0x9F as C1 controls). As
 *   in WHATWG (and browsers), the labels iso-8859-1 and latin1 name windows-1252 too, so 0x80-0x9F in an
 *   ISO-8859-1 part are € ‘ ’ “ ” ... (as in mailparser, whose charset table maps them the same way);
 * - a few labels WHATWG does not list are mapped to one it does (cp932 -> shift_jis, iso_8859_2 ->
 *   iso-8859-2, win-1251 -> windows-1251, ...);
 * - an unknown charset (x-unknown, unknown-8bit, utf-7, DOS code pages...) is read as UTF-8 when the
 *   bytes are valid UTF-8, else as windows-1252: no byte is lost to U+FFFD (mailparser: always UTF-8).
 */
import { TextDecoder } from 'node:util';

/** windows-1252's 0x80-0x9F (the rest is ISO-8859-1); undefined code points stay as they are. */
const WINDOWS_1252_HIGH = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8DŽ\x8F\x90‘’“”•–—˜™š›œ\x9DžŸ';

/** Labels read as UTF-8 (lower-cased, punctuation removed). */
const UTF8_LABELS = new Set(['', 'ascii', 'usascii', 'utf8', 'ansix341968', 'iso646us', 'us', '7bit', '8bit']);

/** Mail's names that WHATWG does not know, to the label it does (tried after the label as written). */
const ALIASES: [RegExp, string][] = [
  [/^(?:cp|ms|windows|win)[-_ ]?(93[26]|949|950)$/, 'cp$1'],
  [/^(?:cp|ms|windows|win)[-_ ]?(125\d|874)$/, 'windows-$1'],
  [/^iso[-_ ]?8859[-_ ]?(\d{1,2})(?:[-_:].*)?$/, 'iso-8859-$1'],
  [/^(?:x-)?euc[-_ ]?(jp|kr)$/, 'euc-$1'],
  [/^(?:x-)?(?:gb[-_ ]?2312|euc[-_ ]?cn|cp936)$/, 'gbk'],
  [/^ks[-_ ]?c[-_ ]?5601.*$/, 'euc-kr'],
];
const CODE_PAGES: Record<string, string> = { cp932: 'shift_jis', cp936: 'gbk', cp949: 'euc-kr', cp950: 'big5' };

const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf16le = new TextDecoder('utf-16le', { ignoreBOM: true });

/** The TextDecoder for a charset label, or null when neither it nor its alias is known. */
function decoderFor(label: string): TextDecoder | null {
  for (const candidate of [label, alias(label)]) {
    if (!candidate) continue;
    try {
      return new TextDecoder(candidate);
    } catch {
      // not a WHATWG label
    }
  }
  return null;
}

function alias(label: string): string {
  const lower = label.toLowerCase();
  for (const [pattern, replacement] of ALIASES) {
    if (pattern.test(lower)) {
      const name = lower.replace(pattern, replacement);
      return CODE_PAGES[name] ?? name;
    }
  }
  return '';
}

/** Whether `charset` is read as UTF-8 (absent, ASCII or UTF-8). */
function isUtf8Charset(charset: string | undefined): boolean {
  return UTF8_LABELS.has(
    (charset ?? '')
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ''),
  );
}

/** Bytes to text in `charset` (the rules above). */
export function decodeCharset(bytes: Uint8Array, charset: string | undefined): string {
  const label = (charset ?? '').trim();
  if (isUtf8Charset(label)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const decoder = decoderFor(label);
  if (!decoder) return decodeUnknown(bytes);
  if (decoder.encoding === 'windows-1252') return decodeWindows1252(bytes);
  return decoder.decode(bytes);
}

/** UTF-8 when the bytes are valid UTF-8, else windows-1252 (8-bit header bytes and unknown charsets). */
export function decodeUnknown(bytes: Uint8Array): string {
  try {
    return utf8Strict.decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}

function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!latin1.some((byte) => byte >= 0x80 && byte <= 0x9f)) return latin1.toString('latin1');
  // One UTF-16LE code unit per byte: linear, without a string built character by character.
  const units = new DataView(new ArrayBuffer(bytes.length * 2));
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    units.setUint16(i * 2, byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_HIGH.charCodeAt(byte - 0x80) : byte, true);
  }
  return utf16le.decode(units);
}
