/**
 * The attachments of a raw message as metadata, without their bytes: what a record lists of them (the
 * SMTP relay's sent emails: shared/usecases/send/message-attachments.ts). Read with ./mime-tree.ts; an
 * attachment is a part that ./mime-part.ts calls one (a leaf that is not a text or HTML body), in
 * document order:
 *
 * - filename: the Content-Disposition's `filename`, else the Content-Type's `name` (RFC 2231/2047
 *   decoded); null when the part has neither;
 * - contentType: `type/subtype` lower-cased, then the Content-Type's parameters as written but `name`
 *   (it is the filename), e.g. `text/csv; charset=utf-8`: what the service's composer wrote from an API
 *   send's `content_type`;
 * - size: bytes once the transfer encoding is undone (base64 counted, not decoded);
 * - contentId: the last non-empty Content-ID (as mailparser keeps it) without its angle brackets, as an
 *   API send's `content_id` is written; null when none;
 * - disposition: `inline` when the part says so, else `attachment`.
 *
 * Parts past the reader's limits (the dashboard preview's: ./parse-bodies.ts PREVIEW_LIMITS) are not listed.
 */
import { unfoldedValue } from './header-block';
import { isAttachment, walkParts } from './mime-part';
import { PREVIEW_LIMITS } from './parse-bodies';
import { readMimeTree, type MimeLimits, type MimePart } from './mime-tree';
import { decodedSize } from './transfer-encoding';

export interface AttachmentInfo {
  filename: string | null;
  contentType: string;
  size: number;
  contentId: string | null;
  disposition: 'inline' | 'attachment';
}

export function messageAttachments(raw: Buffer, limits: MimeLimits = PREVIEW_LIMITS): AttachmentInfo[] {
  const found: AttachmentInfo[] = [];
  for (const { part } of walkParts(readMimeTree(raw, limits).root)) if (isAttachment(part)) found.push(attachmentInfo(part));
  return found;
}

export function attachmentInfo(part: MimePart): AttachmentInfo {
  const contentIds = part.fields
    .filter((field) => field.name === 'content-id')
    .map((field) => unfoldedValue(field).trim())
    .filter(Boolean);
  const contentId = contentIds[contentIds.length - 1];
  return {
    filename: part.filename,
    contentType: [part.type, ...Object.entries(part.params).flatMap(([name, value]) => (name === 'name' ? [] : [`${name}=${parameterValue(value)}`]))].join('; '),
    size: decodedSize(part.body, part.encoding),
    contentId: contentId === undefined ? null : contentId.replace(/^<\s*/, '').replace(/\s*>$/, ''),
    disposition: part.disposition === 'inline' ? 'inline' : 'attachment',
  };
}

/** A token as it is, anything else as a quoted string (RFC 2045). */
function parameterValue(value: string): string {
  return /^[!#$%&'*+\-.0-9A-Z^_`a-z{|}~]+$/.test(value) ? value : `"${value.replace(/["\\]/g, '\\$&')}"`;
}
