/**
 * The text and HTML bodies of a raw message, for display (the dashboard's email page: an SMTP relay
 * message's preview). A small MIME reader instead of mailparser, whose charset tables and HTML converter
 * weigh ~1.5 MB in a bundle; its answers match mailparser's `simpleParser(raw, { skipImageLinks,
 * skipTextLinks, skipTextToHtml })` on the messages the tests list (test/unit/mime/parse-bodies.test.ts):
 *
 * - a body part is a text/plain or text/html (or message/delivery-status) leaf whose disposition is absent or `inline` (any other
 *   disposition, a filename alone does not count, is an attachment; a part without Content-Type is
 *   text/plain, except in multipart/digest); message/rfc822 parts are attachments here (not shown);
 * - content is decoded from base64 or quoted-printable, then from its charset (WHATWG TextDecoder, with
 *   windows-1252 done here: Node's decoder reads it as ISO-8859-1), format=flowed text is unwrapped;
 * - text = the text/plain parts joined with "\n", html = the text/html parts joined with "<br/>\n"; line
 *   breaks are "\n"; the line break before a boundary belongs to the boundary.
 *
 * Not reproduced: mailparser's text made from the HTML when a message has no text part (here `text` is
 * null: the message has none), and its empty filler in `html` for a text part of a multipart/mixed.
 */
import { TextDecoder } from 'node:util';
import { fieldValue, splitHeaderBlock } from './header-block';

export interface MessageBodies {
  text: string | null;
  html: string | null;
}

/** Nesting deeper than this is not read (a hostile message cannot recurse forever). */
const MAX_DEPTH = 20;

export function parseBodies(raw: Buffer): MessageBodies {
  const text: string[] = [];
  const html: string[] = [];
  walk(raw, 'text/plain', 0, (type, content) => (type === 'text/html' ? html : text).push(content));
  return { text: text.length ? text.join('\n') : null, html: html.length ? html.join('<br/>\n') : null };
}

function walk(part: Buffer, defaultType: string, depth: number, onBody: (type: 'text/plain' | 'text/html', content: string) => void): void {
  const { fields, rest } = splitHeaderBlock(part);
  const header = (name: string) => {
    const field = fields.find((f) => f.name === name);
    return field ? fieldValue(field) : undefined;
  };
  const contentType = parseHeaderValue(header('content-type') ?? defaultType);
  const type = /^[^/\s]+\/[^/\s]+$/.test(contentType.value) ? contentType.value : 'text/plain';
  // The empty line after the header belongs to neither.
  const body = rest.subarray(rest[0] === 0x0d && rest[1] === 0x0a ? 2 : rest[0] === 0x0a ? 1 : 0);

  if (type.startsWith('multipart/')) {
    const boundary = contentType.params.boundary;
    if (!boundary || depth >= MAX_DEPTH) return;
    const childType = type === 'multipart/digest' ? 'message/rfc822' : 'text/plain';
    for (const child of splitMultipart(body, boundary)) walk(child, childType, depth + 1, onBody);
    return;
  }
  // message/delivery-status (a bounce's report) is text to mailparser too.
  const bodyType = type === 'text/html' ? 'text/html' : type === 'text/plain' || type === 'message/delivery-status' ? 'text/plain' : null;
  if (!bodyType) return;
  const disposition = parseHeaderValue(header('content-disposition') ?? '').value;
  if (disposition !== '' && disposition !== 'inline') return;

  const encoding = (header('content-transfer-encoding') ?? '').trim().toLowerCase();
  const bytes = encoding === 'base64' ? Buffer.from(body.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64') : encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : body;
  let content = decodeCharset(bytes, contentType.params.charset).replace(/\r\n?/g, '\n');
  if (type === 'text/plain' && contentType.params.format?.toLowerCase() === 'flowed') content = unflow(content, contentType.params.delsp?.toLowerCase() === 'yes');
  onBody(bodyType, content);
}

/** The parts between `--boundary` lines (preamble and epilogue dropped; the line break before each delimiter is the delimiter's). */
function splitMultipart(body: Buffer, boundary: string): Buffer[] {
  const text = body.toString('latin1');
  const parts: Buffer[] = [];
  const delimiter = new RegExp(`(?:^|\\r?\\n)--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(--)?[ \\t]*(?=\\r?\\n|$)`, 'g');
  let start: number | null = null;
  for (let match = delimiter.exec(text); match; match = delimiter.exec(text)) {
    if (start !== null) parts.push(body.subarray(start, match.index));
    if (match[1]) return parts;
    // The part starts after the delimiter line's own line break.
    const lineEnd = text.indexOf('\n', match.index + match[0].length);
    start = lineEnd < 0 ? text.length : lineEnd + 1;
  }
  // No closing delimiter: the last part runs to the end.
  if (start !== null) parts.push(body.subarray(start));
  return parts;
}

/** `value; name=param; ...` (RFC 2045): value and names lower-cased; quoted strings unquoted; RFC 2231 `name*` charset'lang'value decoded. */
function parseHeaderValue(text: string): { value: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const [value = '', ...rest] = splitParams(text);
  for (const param of rest) {
    const equals = param.indexOf('=');
    if (equals < 0) continue;
    let name = param.slice(0, equals).trim().toLowerCase();
    let paramValue = param.slice(equals + 1).trim();
    if (paramValue.startsWith('"') && paramValue.endsWith('"') && paramValue.length >= 2) paramValue = paramValue.slice(1, -1).replace(/\\(.)/g, '$1');
    const extended = /^(.*?)\*(?:\d+\*?)?$/.exec(name);
    if (extended) {
      name = extended[1]!;
      const encoded = /^([^']*)'[^']*'(.*)$/.exec(paramValue);
      paramValue = encoded ? decodeCharset(Buffer.from(decodeURIComponentBytes(encoded[2]!)), encoded[1]) : paramValue;
      params[name] = (params[name] ?? '') + paramValue;
    } else {
      params[name] = paramValue;
    }
  }
  return { value: value.trim().toLowerCase(), params };
}

/** Splits on `;` outside quoted strings. */
function splitParams(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\' && quoted) {
      current += char + (text[++i] ?? '');
    } else if (char === '"') {
      quoted = !quoted;
      current += char;
    } else if (char === ';' && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

function decodeURIComponentBytes(text: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '%' && /^[0-9a-f]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(text.charCodeAt(i) & 0xff);
    }
  }
  return bytes;
}

function decodeQuotedPrintable(body: Buffer): Buffer {
  const text = body.toString('latin1').replace(/[ \t]+(?=\r?\n)/g, '').replace(/=\r?\n/g, '');
  const bytes = Buffer.alloc(text.length);
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes[length++] = parseInt(text.slice(i + 1, i + 3), 16);
      i += 2;
    } else {
      bytes[length++] = text.charCodeAt(i) & 0xff;
    }
  }
  return bytes.subarray(0, length);
}

/** windows-1252's 0x80-0x9F (the rest is ISO-8859-1); undefined code points stay as they are. */
const WINDOWS_1252_HIGH = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8DŽ\x8F\x90‘’“”•–—˜™š›œ\x9DžŸ';

/** Bytes to text in `charset` (default UTF-8; ASCII is read as UTF-8, as mailparser does; an unknown charset as UTF-8). */
function decodeCharset(bytes: Buffer, charset: string | undefined): string {
  const label = (charset ?? '').trim();
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(!label || ['ascii', 'usascii', 'utf8'].includes(label.toLowerCase().replace(/[^a-z0-9]+/g, '')) ? 'utf-8' : label);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  if (decoder.encoding === 'windows-1252') {
    let out = '';
    for (const byte of bytes) out += byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
    return out;
  }
  return decoder.decode(bytes);
}

/**
 * RFC 3676 format=flowed, as mailparser unwraps it (libmime's decodeFlowed): a line ending in a space
 * continues on the next (that space dropped too with DelSp=yes), except after a "-- " signature line;
 * then the space stuffing at the start of each line is removed. A trailing empty line is dropped.
 */
function unflow(text: string, delSp: boolean): string {
  const paragraphs: string[] = [];
  let current: string | null = null;
  for (const line of text.split('\n')) {
    if (current !== null && current.endsWith(' ') && current !== '-- ') {
      current = (delSp ? current.slice(0, -1) : current) + line;
    } else {
      if (current !== null) paragraphs.push(current);
      current = line;
    }
  }
  if (current) paragraphs.push(current);
  return paragraphs.join('\n').replace(/^ /gm, '');
}
