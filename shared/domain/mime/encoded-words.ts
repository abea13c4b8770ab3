/**
 * Header values as mailparser (libmime) reads them, without libmime:
 *
 * - decodeWords: RFC 2047 encoded-words (`=?charset?B|Q?...?=`, a `*lang` suffix on the charset ignored)
 *   decoded through ./charset.ts; whitespace between two encoded-words is dropped, and the bytes of
 *   adjacent words in the same charset are joined before decoding (a character split across two words,
 *   as some mailers do, comes out whole); text around the words stays as it is;
 * - parseHeaderValue: `value; name=param; ...` (RFC 2045) with quoted strings, backslash escapes, and
 *   RFC 2231 parameters (`name*=charset'lang'%XX`, continuations `name*0*`, `name*1`...), an assembled
 *   RFC 2231 value winning over a plain parameter of the same name (RFC 6266).
 */
import { decodeCharset } from './charset';
import { hexValue } from './transfer-encoding';

const ENCODED_WORD = /=\?([\w\-*]+)\?([QqBb])\?([^?]*)\?=/g;

export function decodeWords(text: string): string {
  if (!text.includes('=?')) return text;
  let out = '';
  let last = 0;
  let pending: { charset: string; chunks: Buffer[] } | null = null;
  const flush = () => {
    if (pending) out += decodeCharset(Buffer.concat(pending.chunks), pending.charset);
    pending = null;
  };
  for (const match of text.matchAll(ENCODED_WORD)) {
    const between = text.slice(last, match.index);
    // Whitespace between two encoded-words is not part of the text (RFC 2047 6.2).
    if (!pending || /[^ \t\r\n]/.test(between)) {
      flush();
      out += between;
    }
    const charset = match[1]!.split('*')[0]!;
    const bytes = wordBytes(match[2]!, match[3]!);
    const current = pending as { charset: string; chunks: Buffer[] } | null;
    if (current && sameCharset(current.charset, charset)) current.chunks.push(bytes);
    else {
      flush();
      pending = { charset, chunks: [bytes] };
    }
    last = match.index + match[0].length;
  }
  flush();
  return out + text.slice(last);
}

function sameCharset(a: string, b: string): boolean {
  return a.toLowerCase().replace(/[^a-z0-9]/g, '') === b.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The bytes of an encoded-word's text: B is base64 (padded chunks glued together allowed), Q is RFC 2047's QP. */
function wordBytes(encoding: string, text: string): Buffer {
  if (encoding.toUpperCase() === 'B') {
    return Buffer.concat(
      text
        .split('=')
        .filter(Boolean)
        .map((chunk) => Buffer.from(chunk, 'base64')),
    );
  }
  // Spaces after `=` (a bad fold) are dropped, `_` and whitespace are spaces, `=XX` a byte; other characters are their UTF-8 bytes.
  const source = Buffer.from(text.replace(/=\s+(?=[0-9a-fA-F])/g, '=').replace(/[_\s]/g, ' '), 'utf8');
  return decodePercentOrEquals(source, 0x3d);
}

/** `<marker>XX` hex escapes to bytes; everything else as it is. */
function decodePercentOrEquals(source: Buffer, marker: number): Buffer {
  const bytes = Buffer.alloc(source.length);
  let length = 0;
  for (let i = 0; i < source.length; i++) {
    const high = source[i] === marker ? hexValue(source[i + 1]) : -1;
    const low = high >= 0 ? hexValue(source[i + 2]) : -1;
    if (low >= 0) {
      bytes[length++] = high * 16 + low;
      i += 2;
    } else {
      bytes[length++] = source[i]!;
    }
  }
  return bytes.subarray(0, length);
}

export interface HeaderValue {
  /** The value before the first `;`, as written (callers lower-case what needs it). */
  value: string;
  /** Parameters by lower-cased name; RFC 2231 ones decoded; RFC 2047 words in plain ones left as written. */
  params: Record<string, string>;
}

/** `value; name=param; ...` (the rules at the top). Linear in the length of the text. */
export function parseHeaderValue(text: string): HeaderValue {
  const params: Record<string, string> = Object.create(null);
  let result = '';
  let key: string | null = null;
  let inKey = false;
  let collected = '';
  let significant = 0;
  let quoted = false;
  let escaped = false;
  const commit = () => {
    const value = collected.slice(0, significant);
    if (inKey) {
      if (value) params[value.toLowerCase()] = '';
    } else if (key === null) result = value;
    else params[key] = value;
    collected = '';
    significant = 0;
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const space = char === ' ' || char === '\t' || char === '\r' || char === '\n';
    if (inKey) {
      if (char === '=') {
        key = collected.slice(0, significant).toLowerCase();
        collected = '';
        significant = 0;
        inKey = false;
      } else if (char === ';') commit();
      else if (space) {
        if (collected) collected += char;
      } else {
        collected += char;
        significant = collected.length;
      }
      continue;
    }
    if (escaped) {
      collected += char;
      significant = collected.length;
      escaped = false;
    } else if (char === '\\') escaped = true;
    else if (char === '"') quoted = !quoted;
    else if (!quoted && char === ';') {
      commit();
      inKey = true;
    } else if (!quoted && space) {
      if (collected) collected += char;
    } else {
      collected += char;
      significant = collected.length;
    }
  }
  commit();
  return { value: result, params: joinContinuations(params) };
}

/** RFC 2231: `name*` and `name*0*`/`name*1`... assembled and decoded from their charset. */
function joinContinuations(params: Record<string, string>): Record<string, string> {
  const continued = new Map<string, { charset: string | null; segments: { n: number; value: string }[] }>();
  const plain: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(params)) {
    const match = /\*(?:(\d+)\*?)?$/.exec(name);
    if (!match) {
      plain[name] = value;
      continue;
    }
    const base = name.slice(0, match.index);
    const entry = continued.get(base) ?? { charset: null, segments: [] };
    continued.set(base, entry);
    const n = Number(match[1] ?? 0);
    let segment = value;
    const extended = n === 0 && name.endsWith('*') ? /^([^']*)'[^']*'(.*)$/s.exec(value) : null;
    if (extended) {
      entry.charset = extended[1] || 'utf-8';
      segment = extended[2]!;
    }
    entry.segments.push({ n, value: segment });
  }
  for (const [name, { charset, segments }] of continued) {
    const joined = segments
      .sort((a, b) => a.n - b.n)
      .map((segment) => segment.value)
      .join('');
    plain[name] = charset === null ? decodeWords(joined) : decodeCharset(decodePercentOrEquals(Buffer.from(joined, 'utf8'), 0x25), charset);
  }
  return plain;
}
