/**
 * Attachment uploads (docs/attachments.md):
 *  - createAttachmentUpload (POST /attachments): validates the file name as inline attachments are
 *    validated, records the upload (24 h TTL) and returns a presigned S3 PUT URL (15 min) for
 *    `uploads/<account>/<att id>` in the mail bucket;
 *  - getAttachmentUpload (GET /attachments/{id}): the record, with status and size read from the
 *    bucket (HEAD), so a client can confirm its PUT landed before sending.
 * Sends reference uploads through resolveAttachments (./email-attachments.ts).
 */
import { MAX_ATTACHMENT_BYTES } from '../../domain/emails/attachments';
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
} from '../../domain/emails/attachment-upload';
import { AppError } from '../../domain/errors';
import type { BlobInfo, BlobStore, PresignedPut } from '../../ports/blobs';
import type { Clock } from '../../ports/clock';
import type { AttachmentUploadRepository } from '../../adapters/store/attachment-uploads';
import type { Principal } from '../access/principal';
import { assertVisible, limitedTenantOf } from '../access/visibility';

export interface AttachmentUploadDeps {
  attachmentUploads: Pick<AttachmentUploadRepository, 'create' | 'get' | 'recordObject'>;
  blobs: Pick<BlobStore, 'presignPut' | 'head'>;
  clock: Clock;
}

/**
 * The stored record also keeps the tenant of the credential that created it (`tenant_id`, null for an
 * account-wide key; absent on records written before it was kept, read as null), so a key limited to a
 * tenant sees its tenant's uploads only (assertVisible).
 */
type OwnedUpload = AttachmentUpload & { tenant_id?: string | null };

/** Who an upload belongs to, for assertVisible (tenant: the tenant id, as on the credential). */
export function uploadOwner(upload: OwnedUpload): { account_id: string; tenant: string | null } {
  return { account_id: upload.account_id, tenant: upload.tenant_id ?? null };
}

export interface CreatedAttachmentUpload {
  upload: AttachmentUpload;
  put: PresignedPut & { method: 'PUT'; expires_at: string };
}

/** 413 payload_too_large for one file over the per-file limit. */
export function fileTooLargeError(size: number, message?: string, details: Record<string, unknown> = {}): AppError {
  return new AppError(
    413,
    'payload_too_large',
    message ?? `The file is ${size} bytes; the limit is ${MAX_ATTACHMENT_BYTES} bytes (10 MB) per attachment.`,
    {
      details: { size, max_size: MAX_ATTACHMENT_BYTES, ...details },
      hint: 'Compress the file or split it; every attachment must be at most 10 MB.',
    },
  );
}

export async function createAttachmentUpload(
  deps: AttachmentUploadDeps,
  principal: Principal,
  input: CreateAttachmentUploadRequest,
): Promise<CreatedAttachmentUpload> {
  if (input.size !== null && input.size > MAX_ATTACHMENT_BYTES) throw fileTooLargeError(input.size);
  const now = deps.clock.now();
  const id = newAttachmentId(now.getTime());
  const accountId = principal.account.id;
  const upload: OwnedUpload = {
    id,
    account_id: accountId,
    tenant_id: limitedTenantOf(principal),
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
 * The live upload stored under the account's key, or null (unknown id, another account's id, or
 * expired: the same answer for all three, so ids of other accounts cannot be probed). The account is
 * part of the record's key (shared/adapters/store/attachment-uploads.ts), so another account's id is never found;
 * who within the account may see it is assertVisible's rule (getAttachmentUpload).
 */
export async function findLiveUpload(
  deps: { attachmentUploads: Pick<AttachmentUploadRepository, 'get'> },
  accountId: string,
  attachmentId: string,
  now: Date,
): Promise<OwnedUpload | null> {
  if (!isAttachmentId(attachmentId)) return null;
  const upload = await deps.attachmentUploads.get(accountId, attachmentId);
  return upload && !isUploadExpired(upload, now) ? upload : null;
}

export async function getAttachmentUpload(
  deps: AttachmentUploadDeps,
  principal: Principal,
  attachmentId: string,
): Promise<AttachmentUpload> {
  const found = await findLiveUpload(deps, principal.account.id, attachmentId, deps.clock.now());
  // The one ownership rule (same account, and the key's tenant when it is limited to one): 404 otherwise.
  assertVisible(principal, found && uploadOwner(found), 'Attachment', attachmentId);
  const upload = found!;
  const object = await deps.blobs.head(upload.blob_key);
  const status = statusOf(object);
  const size = object ? object.size : null;
  if (status === upload.status && size === upload.size) return upload;
  return (await deps.attachmentUploads.recordObject(upload.account_id, upload.id, status, size)) ?? { ...upload, status, size };
}
