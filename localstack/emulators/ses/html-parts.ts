/**
 * Rewrites the HTML body parts of a MIME message in place: every `text/html` leaf that is not an
 * attachment (Content-Disposition: attachment) is decoded (base64 or quoted-printable; charset UTF-8,
 * US-ASCII or ISO-8859-1), transformed and encoded again with its own transfer encoding. Every other byte
 * (headers, boundaries, other parts, preamble and epilogue) is kept as given. Parts in other charsets are
 * left unchanged (an emulator limit, docs/local-cloud/ses.md "Tracking").
 */
import { encode as qpEncode, wrap as qpWrap } from 'nodemailer/lib/qp';
import { headerSectionEnd, headerValue, parseHeaderFields } from './mime';

type Transform = (html: string) => string;

const CHARSETS: Record<string, BufferEncoding> = {
  'utf-8': 'utf8',
  utf8: 'utf8',
  'us-ascii': 'latin1',
  ascii: 'latin1',
  'iso-8859-1': 'latin1',
  latin1: 'latin1',
};

function parameter(value: string, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(value);
  return match ? (match[1] ?? match[2]) : undefined;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function decodeBody(body: string, encoding: string): Buffer {
  if (encoding === 'base64') return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  if (encoding === 'quoted-printable') {
    const joined = body.replace(/=\r?\n/g, '');
    return Buffer.from(
      joined.replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    );
  }
  return Buffer.from(body, 'latin1');
}

function encodeBody(bytes: Buffer, encoding: string, eol: string): string {
  if (encoding === 'base64') return (bytes.toString('base64').match(/.{1,76}/g) ?? []).join(eol);
  if (encoding === 'quoted-printable') return qpWrap(qpEncode(bytes), 76).replace(/\r?\n/g, eol);
  return bytes.toString('latin1');
}

/** One entity (a latin1 string holding its bytes) with its HTML leaves transformed. */
function rewriteEntity(entity: string, transform: Transform): string {
  const bytes = Buffer.from(entity, 'latin1');
  const end = headerSectionEnd(bytes);
  if (end >= entity.length) return entity;
  const fields = parseHeaderFields(bytes);
  const contentType = headerValue(fields, 'Content-Type') ?? 'text/plain';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const header = entity.slice(0, end);
  const separator = entity.startsWith('\r\n\r\n', end) ? '\r\n\r\n' : '\n\n';
  const body = entity.slice(end + separator.length);

  if (type.startsWith('multipart/')) {
    const boundary = parameter(contentType, 'boundary');
    if (!boundary) return entity;
    const delimiter = new RegExp(`(^|\\r?\\n)--${escapeRegExp(boundary)}(--)?[ \\t]*(?=\\r?\\n|$)`, 'g');
    let out = '';
    let last = 0;
    let inPart = false;
    for (const match of body.matchAll(delimiter)) {
      const chunk = body.slice(last, match.index);
      out += inPart ? rewritePart(chunk, transform) : chunk;
      out += match[0];
      last = match.index + match[0].length;
      inPart = match[2] !== '--';
      if (!inPart) break;
    }
    out += inPart ? rewritePart(body.slice(last), transform) : body.slice(last);
    return header + separator + out;
  }

  const disposition = (headerValue(fields, 'Content-Disposition') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'text/html' || disposition === 'attachment') return entity;
  const charset = CHARSETS[(parameter(contentType, 'charset') ?? 'us-ascii').toLowerCase()];
  if (!charset) return entity;
  const encoding = (headerValue(fields, 'Content-Transfer-Encoding') ?? '7bit').trim().toLowerCase();
  const eol = separator === '\r\n\r\n' ? '\r\n' : '\n';
  // Line breaks closing the body are kept as written (they may belong to the encoding's last line).
  const trailing = /(\r?\n)*$/.exec(body)![0];
  const html = decodeBody(body.slice(0, body.length - trailing.length), encoding).toString(charset);
  return header + separator + encodeBody(Buffer.from(transform(html), charset), encoding, eol) + trailing;
}

/** A part between two delimiters: its leading line break (the end of the delimiter line) kept as is. */
function rewritePart(chunk: string, transform: Transform): string {
  const lead = /^\r?\n/.exec(chunk)?.[0] ?? '';
  return lead + rewriteEntity(chunk.slice(lead.length), transform);
}

/** The message with `transform` applied to the text of each HTML body part. */
export function rewriteHtmlParts(raw: Buffer, transform: Transform): Buffer {
  return Buffer.from(rewriteEntity(raw.toString('latin1'), transform), 'latin1');
}
