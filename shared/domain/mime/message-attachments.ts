/**
 * The attachments of a raw message as metadata, without their bytes: what a record lists of them (the
 * SMTP relay's sent emails and their resends: shared/usecases/send/message-attachments.ts; on the send path,
 * where mailparser's weight would not fit: docs/reference/parsers.md). Read with
 * ./mime-tree.ts; an attachment is a part that ./mime-part.ts calls one (a leaf that is not a text or HTML
 * body), in document order, the parts mailparser lists as attachments (test/unit/mime/reader-vs-mailparser.test.ts):
 *
 * - filename: the Content-Disposition's `filename`, else the Content-Type's `name` (RFC 2231/2047
 *   decoded); null when the part has neither;
 * - contentType: `type/subtype` lower-cased, then the Content-Type's parameters as written but `name`
 *   (it is the filename), e.g. `text/csv; charset=utf-8`: what the service's composer wrote from an API
 *   send's `content_type`; a part without Content-Type gets the type of its file name (./mime-types.ts),
 *   as mailparser names it;
 * - size: bytes once the transfer encoding is undone (base64 counted, not decoded);
 * - contentId: the last non-empty Content-ID (contentIdOf) without its angle brackets, as an API send's
 *   `content_id` is written; null when none;
 * - disposition: `inline` when the part says so, else `attachment`.
 *
 * Parts past the reader's limits (the dashboard preview's: ./parse-bodies.ts PREVIEW_LIMITS) are not listed.
 */
import { unfoldedValue } from './header-block';
import { isAttachment, walkParts } from './mime-part';
import { PREVIEW_LIMITS } from './parse-bodies';
import { readMimeTree, type MimePart } from './mime-tree';
import { typeOfFilename } from './mime-types';
import { decodedSize } from './transfer-encoding';

export interface AttachmentInfo {
  filename: string | null;
  contentType: string;
  size: number;
  contentId: string | null;
  disposition: 'inline' | 'attachment';
}

export function messageAttachments(raw: Buffer): AttachmentInfo[] {
  return attachmentParts(readMimeTree(raw, PREVIEW_LIMITS).root).map(attachmentInfo);
}

/** The attachment parts of a message's tree, in document order. */
function attachmentParts(root: MimePart): MimePart[] {
  const found: MimePart[] = [];
  for (const { part } of walkParts(root)) if (isAttachment(part)) found.push(part);
  return found;
}

/** The part's Content-ID as written (angle brackets included): the last non-empty one, as mailparser keeps it; null when none. */
function contentIdOf(part: MimePart): string | null {
  const contentIds = part.fields
    .filter((field) => field.name === 'content-id')
    .map(unfoldedValue)
    .filter(Boolean);
  return contentIds[contentIds.length - 1] ?? null;
}

/**
 * The part's type with its parameters but `name`; for a part that declares none, the type of its decoded
 * file name (./mime-tree.ts took it from the name as written, before RFC 2047 decoding, as mailsplit does).
 */
function declaredType(part: MimePart): string {
  const declared = part.fields.some((field) => field.name === 'content-type');
  if (!declared && part.type === 'application/octet-stream' && part.filename) return typeOfFilename(part.filename);
  return [
    part.type,
    ...Object.entries(part.params).flatMap(([name, value]) => (name === 'name' ? [] : [`${name}=${parameterValue(value)}`])),
  ].join('; ');
}

function attachmentInfo(part: MimePart): AttachmentInfo {
  const contentId = contentIdOf(part);
  return {
    filename: part.filename,
    contentType: declaredType(part),
    size: decodedSize(part.body, part.encoding),
    contentId: contentId === null ? null : contentId.replace(/^<\s*/, '').replace(/\s*>$/, ''),
    disposition: part.disposition === 'inline' ? 'inline' : 'attachment',
  };
}

/** A token as it is, anything else as a quoted string (RFC 2045). */
function parameterValue(value: string): string {
  return /^[!#$%&'*+\-.0-9A-Z^_`a-z{|}~]+$/.test(value) ? value : `"${value.replace(/["\\]/g, '\\$&')}"`;
}
