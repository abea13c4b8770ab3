/**
 * Attachment uploads (POST /attachments, GET /attachments/{id}): files too large to travel inline in a
 * send request (API Gateway takes 10 MB per request and Lambda 6 MB) go straight to the mail bucket
 * with a presigned S3 PUT, and a send references them by id (`{"attachment_id": "att_..."}` in
 * `attachments`). See docs/attachments.md.
 *
 * The record lives 24 hours (table TTL, and `expires_at` checked on every read since TTL deletion is
 * lazy); the bytes are at `uploads/<account>/<att id>` in the mail bucket. A send copies them to the
 * email's own key, so the email never depends on the upload afterwards.
 */
import * as z from 'zod';
import { ulid } from '../ids';
import { ATTACHMENT_ID_PATTERN, contentTypeField, contentTypeForFilename, filenameField } from './attachments';

/** How long the presigned PUT URL works. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
/** How long an upload can be referenced by sends (and is kept) after it was created. */
export const UPLOAD_RETENTION_SECONDS = 24 * 60 * 60;
/** Key prefix of uploads in the mail bucket; the bucket's lifecycle rule for this prefix is in docs/attachments.md. */
export const UPLOAD_KEY_PREFIX = 'uploads/';

/**
 * pending_upload: nothing at the URL yet; uploaded: the file is there and within the per-file limit;
 * too_large: the file is there but over MAX_ATTACHMENT_BYTES (only possible when `size` was not declared).
 */
export type AttachmentUploadStatus = 'pending_upload' | 'uploaded' | 'too_large';

export interface AttachmentUpload {
  id: string;
  account_id: string;
  filename: string;
  content_type: string;
  /** The size the client declared (signed into the URL as Content-Length), or null. */
  declared_size: number | null;
  status: AttachmentUploadStatus;
  /** The stored object's size once seen, else null. */
  size: number | null;
  blob_key: string;
  created_at: string;
  /** When the presigned URL stops working. */
  upload_expires_at: string;
  /** When the upload is forgotten (record TTL; the bucket's lifecycle rule removes the bytes). */
  expires_at: string;
}

export function newAttachmentId(now: number = Date.now()): string {
  return `att_${ulid(now)}`;
}

export function isAttachmentId(id: string): boolean {
  return ATTACHMENT_ID_PATTERN.test(id);
}

export function uploadBlobKey(accountId: string, attachmentId: string): string {
  return `${UPLOAD_KEY_PREFIX}${accountId}/${attachmentId}`;
}

/** True once the upload may no longer be used (the TTL may not have removed the record yet). */
export function isUploadExpired(upload: Pick<AttachmentUpload, 'expires_at'>, now: Date): boolean {
  return now.getTime() >= Date.parse(upload.expires_at);
}

/** Aliases POST /attachments accepts (alias -> canonical name), as the send request's attachment items do. */
export const ATTACHMENT_UPLOAD_ALIASES: Readonly<Record<string, string>> = { name: 'filename', contentType: 'content_type' };

/** Body of POST /attachments. Over-limit sizes are a 413 from the use case, not a 400 from here. */
export const createAttachmentUploadSchema = z.preprocess(
  (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
    const { name, contentType, ...rest } = input as Record<string, unknown>;
    return {
      ...(name === undefined ? {} : { filename: name }),
      ...(contentType === undefined ? {} : { content_type: contentType }),
      ...rest,
    };
  },
  z
    .object({
      filename: filenameField.describe(
        'the file name sends use (1-255 characters; the rules of inline attachments, blocked extensions refused)',
      ),
      content_type: contentTypeField
        .optional()
        .describe('the MIME type (`type/subtype`); default: from the extension, else application/octet-stream'),
      size: z
        .number({ error: 'size must be a number of bytes' })
        .int('size must be a whole number of bytes')
        .min(1, 'size must be at least 1 byte')
        .optional()
        .describe('the exact byte count (recommended): signed into the URL, so S3 refuses any other size; over 10 MB is 413'),
    })
    .transform((value) => ({
      filename: value.filename,
      content_type: value.content_type ?? contentTypeForFilename(value.filename),
      size: value.size ?? null,
    })),
);

export type CreateAttachmentUploadRequest = z.output<typeof createAttachmentUploadSchema>;

/** The public record (`object: "attachment"`). */
export function toPublicAttachmentUpload(upload: AttachmentUpload) {
  return {
    id: upload.id,
    object: 'attachment' as const,
    filename: upload.filename,
    content_type: upload.content_type,
    status: upload.status,
    size: upload.size,
    created_at: upload.created_at,
    expires_at: upload.expires_at,
  };
}
