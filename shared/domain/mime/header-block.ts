/**
 * The top-level header block of a raw message, field by field, with every byte kept as received, so a
 * message can be edited at its header (fields removed or added) without touching anything else. Strings
 * here are latin1: one character per byte, so 8-bit (UTF-8) header bytes pass through unchanged.
 * The MIME reader (./mime-tree.ts) splits each part's header block with it too.
 */
import { decodeUnknown } from './charset';

export interface RawHeaderField {
  /** Lower-cased field name ('' for a line without a colon, kept as it is). */
  name: string;
  /** The field as received: its first line, continuation lines and their line breaks. */
  text: string;
}

export interface RawMessageParts {
  fields: RawHeaderField[];
  /** The empty line ending the header and the body after it, as received (empty when there is none). */
  rest: Buffer;
  /** The line break the message uses, so an added field matches it. */
  eol: '\r\n' | '\n';
}

export function splitHeaderBlock(raw: Buffer): RawMessageParts {
  const text = raw.toString('latin1');
  const firstBreak = text.indexOf('\n');
  const eol = firstBreak > 0 && text[firstBreak - 1] === '\r' ? '\r\n' : firstBreak >= 0 ? '\n' : '\r\n';
  const fields: RawHeaderField[] = [];
  let position = 0;
  while (position < text.length) {
    const lineEnd = text.indexOf('\n', position);
    const next = lineEnd < 0 ? text.length : lineEnd + 1;
    const line = text.slice(position, next);
    if (line === '\r\n' || line === '\n') break; // the empty line: the body follows
    const last = fields[fields.length - 1];
    if ((line.startsWith(' ') || line.startsWith('\t')) && last) {
      last.text += line;
    } else {
      const colon = line.indexOf(':');
      fields.push({ name: colon >= 0 ? line.slice(0, colon).trim().toLowerCase() : '', text: line });
    }
    position = next;
  }
  // latin1: character offsets are byte offsets.
  return { fields, rest: raw.subarray(position), eol };
}

export function joinHeaderBlock(fields: readonly RawHeaderField[], rest: Buffer): Buffer {
  return Buffer.concat([Buffer.from(fields.map((field) => field.text).join(''), 'latin1'), rest]);
}

/** The field's name as written (case kept), or '' for a line without a colon. */
export function fieldName(field: RawHeaderField): string {
  const colon = field.text.indexOf(':');
  return colon >= 0 ? field.text.slice(0, colon).trim() : '';
}

/** The field's value unfolded and trimmed, its bytes read as UTF-8 (RFC 2047 words are left encoded). */
export function fieldValue(field: RawHeaderField): string {
  const colon = field.text.indexOf(':');
  const value = colon >= 0 ? field.text.slice(colon + 1) : '';
  return Buffer.from(value.replace(/\r?\n(?=[ \t])/g, '').replace(/\r?\n$/, ''), 'latin1')
    .toString('utf8')
    .trim();
}

/**
 * The field's value as mailparser reads it: each line break with the blanks after it as one space,
 * trimmed; 8-bit bytes as UTF-8 when they are valid UTF-8, else windows-1252 (RFC 2047 words are left
 * encoded: ./encoded-words.ts decodes them where a field allows them).
 */
export function unfoldedValue(field: RawHeaderField): string {
  const colon = field.text.indexOf(':');
  const value = colon >= 0 ? field.text.slice(colon + 1) : '';
  return decodeUnknown(Buffer.from(value.replace(/(?:\r?\n|\r)[ \t]*/g, ' ').trim(), 'latin1')).trim();
}
