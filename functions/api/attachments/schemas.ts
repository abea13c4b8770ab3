/** Response schemas of the attachments group (uploads of large attachments). */
import * as z from 'zod';
import type { toPublicAttachmentUpload } from '#shared/domain/emails/attachment-upload';
import { describing, timestamp } from '#shared/doors/openapi/common-schemas';

/** An attachment upload (POST /attachments, GET /attachments/{id}). */
export const attachmentUploadSchema = describing<ReturnType<typeof toPublicAttachmentUpload>>()(
  z.strictObject({
    id: z
      .string()
      .regex(/^att_[0-9A-HJKMNP-TV-Z]{26}$/)
      .describe("the upload's id (att_...): `attachment_id` in a send"),
    object: z.literal('attachment').describe('always `attachment`'),
    filename: z.string().describe('the file name sends use unless they give their own'),
    content_type: z.string().describe('the MIME type, from the request or else the extension (application/octet-stream when unknown)'),
    status: z
      .enum(['pending_upload', 'uploaded', 'too_large'])
      .describe('pending_upload: nothing PUT yet; uploaded: the file is there (at most 10 MB); too_large: over 10 MB, sends refuse it'),
    size: z.number().int().nullable().describe('bytes, once the upload is seen; null before'),
    created_at: timestamp.describe('when the upload was created (ISO 8601)'),
    expires_at: timestamp.describe('reference it in a send before this (24 hours)'),
  }),
);

export const attachmentEnvelopeSchema = z.strictObject({ attachment: attachmentUploadSchema.describe('the upload') });

export const attachmentCreatedSchema = z.strictObject({
  attachment: attachmentUploadSchema.describe('the upload, pending_upload'),
  upload: z
    .strictObject({
      url: z.string().describe('presigned S3 URL: PUT the bytes here'),
      method: z.literal('PUT').describe('always PUT'),
      headers: z.record(z.string(), z.string()).describe('send these headers with the PUT'),
      expires_at: timestamp.describe('the URL works for 15 minutes'),
    })
    .describe('where to PUT the file'),
});
