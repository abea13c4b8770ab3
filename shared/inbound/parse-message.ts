/**
 * Reading a received message into what the record, the bodies and the attachments need, with the
 * service's own MIME reader (shared/mime/: mime-tree, mime-part, parse-bodies, encoded-words, charset,
 * addresses, html-to-text) in place of mailparser, whose charset tables and HTML converter made the
 * inbound worker's bundle 3.5 MB. It gives what mailparser gave on ordinary messages (the equality test
 * test/unit/mime/parse-message-vs-mailparser.test.ts); the deliberate differences are listed in
 * docs/inbound.md ("Parsing").
 *
 * It never throws: a message that cannot be read whole (more than MAX_MIME_PARTS parts, a part's header
 * over 1 MB) gives what its top header block says, decoded, with `parse_error` saying what went wrong
 * and no bodies or attachments; a multipart nested deeper than MAX_MIME_DEPTH levels is not split (the
 * rest is read) and `parse_error` says so. The raw message is kept either way. Attachments past
 * MAX_STORED_ATTACHMENTS are counted, not kept (they stay in the raw message).
 */
import { MAX_STORED_ATTACHMENTS, type ReceivedHeaderFields } from '../domain/inbound/received-email';
import { formatAddressList } from '../mime/addresses';
import { decodeUnknown } from '../mime/charset';
import { decodeWords } from '../mime/encoded-words';
import { fieldName, unfoldedValue, type RawHeaderField } from '../mime/header-block';
import { htmlToText } from '../mime/html-to-text';
import { attachmentParts, contentIdOf } from '../mime/message-attachments';
import { partContent } from '../mime/mime-part';
import { headerFields, readMimeTree, type MimePart } from '../mime/mime-tree';
import { typeOfFilename } from '../mime/mime-types';
import { collectBodies } from '../mime/parse-bodies';
import { textToHtml } from '../mime/text-to-html';

export interface ParsedAttachment {
  filename: string | null;
  content_type: string;
  size: number;
  /** The Content-ID as written, angle brackets included (`<logo@example.com>`), as mailparser's contentId. */
  content_id: string | null;
  content_disposition: 'attachment' | 'inline';
  content: Buffer;
}

export interface ParsedInbound extends ReceivedHeaderFields {
  html: string | null;
  text: string | null;
  /** Every header field of the top header block, in order (name as written, value unfolded and trimmed, 8-bit bytes as UTF-8). */
  headers: { name: string; value: string }[];
  attachments: ParsedAttachment[];
  attachment_count: number;
  parse_error: string | null;
}

/**
 * MIME parts read before the message is read as headers only (the top one not counted). Reading is
 * linear and keeps only offsets per part: 10,000 parts take well under a second.
 */
export const MAX_MIME_PARTS = 10_000;
/** Multiparts nested deeper than this are not split (200 levels, as some test corpora send, are read). */
export const MAX_MIME_DEPTH = 500;
/** A part header over this is not read (mailparser's limit, kept). */
const MAX_PART_HEADER_BYTES = 1024 * 1024;

export async function parseInbound(raw: Buffer): Promise<ParsedInbound> {
  try {
    return parseMessage(raw);
  } catch (error) {
    return headersOnly(raw, (error as Error)?.message || String(error));
  }
}

function parseMessage(raw: Buffer): ParsedInbound {
  const tree = readMimeTree(raw, { maxParts: MAX_MIME_PARTS, maxDepth: MAX_MIME_DEPTH, maxHeaderBytes: MAX_PART_HEADER_BYTES });
  if (tree.error) return headersOnly(raw, tree.error);
  const attachments = attachmentParts(tree.root);
  return {
    ...readHeaderFields(tree.root.fields),
    ...collectBodies(tree.root, { htmlToText, textToHtml }),
    attachments: attachments.slice(0, MAX_STORED_ATTACHMENTS).map(toAttachment),
    attachment_count: attachments.length,
    parse_error: tree.truncated ? `MIME parts nested deeper than ${MAX_MIME_DEPTH} levels were not read` : null,
  };
}

/** The top header block alone (decoded words, addresses). */
function headersOnly(raw: Buffer, reason: string): ParsedInbound {
  const empty = { html: null, text: null, attachments: [], attachment_count: 0, parse_error: reason };
  try {
    return { ...readHeaderFields(headerFields(raw)), ...empty };
  } catch {
    return { from: '', to: [], cc: [], reply_to: [], subject: '', message_id: null, in_reply_to: null, references: [], date: null, headers: [], ...empty };
  }
}

function toAttachment(part: MimePart): ParsedAttachment {
  const content = partContent(part);
  return {
    filename: part.filename,
    // A generic type is made specific from the file name, as mailparser does.
    content_type: part.type === 'application/octet-stream' && part.filename ? typeOfFilename(part.filename) : part.type,
    size: content.length,
    content_id: contentIdOf(part),
    content_disposition: part.disposition === 'inline' ? 'inline' : 'attachment',
    content,
  };
}

/**
 * The record's fields from the top header block, as mailparser reads them: From, Reply-To, Subject,
 * Message-ID, In-Reply-To and Date from the last field of that name (Subject and the ids: the last
 * non-empty one), To, Cc and References from all of them; ids get their missing angle brackets.
 */
function readHeaderFields(fields: RawHeaderField[]): ReceivedHeaderFields & Pick<ParsedInbound, 'headers'> {
  const values = (name: string) => fields.filter((field) => field.name === name).map(unfoldedValue);
  const lastOf = (list: (string | null)[]) => list.filter((value): value is string => !!value).pop() ?? null;
  const lastField = (name: string) => values(name).pop();
  const date = lastField('date');
  const parsedDate = date ? new Date(date) : null;
  return {
    from: formatAddressList(lastField('from') ?? '')[0] ?? '',
    to: values('to').flatMap(formatAddressList),
    cc: values('cc').flatMap(formatAddressList),
    reply_to: formatAddressList(lastField('reply-to') ?? ''),
    subject: lastOf(values('subject').map(decodeWords)) ?? '',
    message_id: lastOf(values('message-id').map((value) => messageId(decodeWords(value)))),
    in_reply_to: lastOf(values('in-reply-to').map((value) => messageId(decodeWords(value)))),
    references: values('references').flatMap((value) =>
      decodeWords(value)
        .split(/\s+/)
        .map(messageId)
        .filter((id): id is string => id !== null),
    ),
    date: parsedDate && !Number.isNaN(parsedDate.getTime()) ? parsedDate.toISOString() : null,
    headers: fields.map((field) =>
      field.text.includes(':') ? { name: fieldName(field), value: unfoldedValue(field) } : { name: decodeUnknown(Buffer.from(field.text.replace(/\r?\n$/, ''), 'latin1')), value: '' },
    ),
  };
}

/** An id with the angle brackets it lacks (`abc@host` -> `<abc@host>`), null for an empty one. */
function messageId(value: string): string | null {
  if (!value) return null;
  return `${value.startsWith('<') ? '' : '<'}${value}${value.endsWith('>') ? '' : '>'}`;
}

