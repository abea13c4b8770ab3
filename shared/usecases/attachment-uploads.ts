/**
 * Attachment uploads (docs/attachments.md):
 *  - createAttachmentUpload (POST /attachments): validates the file name as inline attachments are
 *    validated, records the upload (24 h TTL) and returns a presigned S3 PUT URL (15 min) for
 *    `uploads/<account>/<att id>` in the mail bucket;
 *  - getAttachmentUpload (GET /attachments/{id}): the record, with status and size read from the
 *    bucket (HEAD), so a client can confirm its PUT landed before sending.
 * Sends reference uploads through resolveAttachments (./email-attachments.ts).
 */
import { MAX_ATTACHMENT_BYTES } from '../domain/emails/attachments';
import {
  isAttachmentId,
  isUploadExpired,
  newAttachmentId,
  uploadBlobKey,
  UPLOAD_RETENTION_SECONDS,
  UPLOAD_URL_TTL_SECONDS,
  type AttachmentUpload,
  type AttachmentUploadStatus,
  type CreateAttachmentUploadRequest,
} from '../domain/emails/attachment-upload';
import { AppError, NotFoundError } from '../domain/errors';
import type { BlobInfo, BlobStore, Clock, PresignedPut } from '../ports';
import type { AttachmentUploadRepository } from '../store/attachment-uploads';
import type { Principal } from './principal';

export interface AttachmentUploadDeps {
  attachmentUploads: Pick<AttachmentUploadRepository, 'create' | 'get' | 'recordObject'>;
  blobs: Pick<BlobStore, 'presignPut' | 'head'>;
  clock: Clock;
}

export interface CreatedAttachmentUpload {
  upload: AttachmentUpload;
  put: PresignedPut & { method: 'PUT'; expires_at: string };
}

/** 413 payload_too_large for one file over the per-file limit. */
export function fileTooLargeError(size: number, message?: string, details: Record<string, unknown> = {}): AppError {
  return new AppError(413, 'payload_too_large', message ?? `The file is ${size} bytes; the limit is ${MAX_ATTACHMENT_BYTES} bytes (10 MB) per attachment.`, {
    details: { size, max_size: MAX_ATTACHMENT_BYTES, ...details },
    hint: 'Compress the file or split it; every attachment must be at most 10 MB.',
  });
}

export async function createAttachmentUpload(deps: AttachmentUploadDeps, principal: Principal, input: CreateAttachmentUploadRequest): Promise<CreatedAttachmentUpload> {
  if (input.size !== null && input.size > MAX_ATTACHMENT_BYTES) throw fileTooLargeError(input.size);
  const now = deps.clock.now();
  const id = newAttachmentId(now.getTime());
  const accountId = principal.account.id;
  const upload: AttachmentUpload = {
    id,
    account_id: accountId,
    filename: input.filename,
    content_type: input.content_type,
    declared_size: input.size,
    status: 'pending_upload',
    size: null,
    blob_key: uploadBlobKey(accountId, id),
    created_at: now.toISOString(),
    upload_expires_at: new Date(now.getTime() + UPLOAD_URL_TTL_SECONDS * 1000).toISOString(),
    expires_at: new Date(now.getTime() + UPLOAD_RETENTION_SECONDS * 1000).toISOString(),
  };
  const put = await deps.blobs.presignPut(upload.blob_key, {
    contentType: upload.content_type,
    ...(input.size === null ? {} : { contentLength: input.size }),
    expiresInSeconds: UPLOAD_URL_TTL_SECONDS,
  });
  await deps.attachmentUploads.create(upload);
  return { upload, put: { ...put, method: 'PUT', expires_at: upload.upload_expires_at } };
}

/** What the object in the bucket makes of the upload's status. */
export function statusOf(object: BlobInfo | null): AttachmentUploadStatus {
  if (!object) return 'pending_upload';
  return object.size > MAX_ATTACHMENT_BYTES ? 'too_large' : 'uploaded';
}

/**
 * The account's live upload, or null (unknown id, another account's id, or expired: the same answer
 * for all three, so ids of other accounts cannot be probed).
 */
export async function findLiveUpload(
  deps: { attachmentUploads: Pick<AttachmentUploadRepository, 'get'> },
  accountId: string,
  attachmentId: string,
  now: Date,
): Promise<AttachmentUpload | null> {
  if (!isAttachmentId(attachmentId)) return null;
  const upload = await deps.attachmentUploads.get(accountId, attachmentId);
  if (!upload || upload.account_id !== accountId || isUploadExpired(upload, now)) return null;
  return upload;
}

export async function getAttachmentUpload(deps: AttachmentUploadDeps, principal: Principal, attachmentId: string): Promise<AttachmentUpload> {
  const upload = await findLiveUpload(deps, principal.account.id, attachmentId, deps.clock.now());
  if (!upload) throw new NotFoundError('Attachment', attachmentId);
  const object = await deps.blobs.head(upload.blob_key);
  const status = statusOf(object);
  const size = object ? object.size : null;
  if (status === upload.status && size === upload.size) return upload;
  return (await deps.attachmentUploads.recordObject(upload.account_id, upload.id, status, size)) ?? { ...upload, status, size };
}
