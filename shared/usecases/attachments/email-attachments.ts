/**
 * Attachment bytes live in the blob store, never in the email item (DynamoDB's 400 KB item limit):
 * `attachments/<email_id>/<index>`. The email keeps `AttachmentRef`s (metadata and the blob key).
 *
 * A send's attachments are inline (base64 in the request) or references to uploads (POST
 * /attachments, docs/attachments.md). resolveAttachments checks every reference first (the account's,
 * live, uploaded, within 10 MB) and the whole message against SES's 40 MB, then stores: inline bytes are
 * put, uploads are copied server-side to the email's own key. So a refused send stores nothing, and an
 * accepted email never depends on its uploads again (they expire after 24 h and may be overwritten by
 * their URL until it expires); the send worker loads every attachment the same way (loadAttachments).
 */
import {
  estimateMessageBytes,
  isAttachmentReference,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENT_BYTES_PER_MESSAGE,
  SES_MAX_MESSAGE_BYTES,
  type AttachmentInput,
  type AttachmentRef,
  type AttachmentReference,
  type EmailAttachment,
  type InlineAttachment,
} from '../../domain/emails/attachments';
import type { AttachmentUpload } from '../../domain/emails/attachment-upload';
import { AppError } from '../../domain/errors';
import type { MimeAttachment } from '../../domain/mime/compose';
import type { BlobInfo, BlobStore } from '../../ports/blobs';
import type { Clock } from '../../ports/clock';
import type { AttachmentUploadRepository } from '../../adapters/store/attachment-uploads';
import { findLiveUpload, uploadOwner } from './attachment-uploads';

export function attachmentBlobKey(emailId: string, index: number): string {
  return `attachments/${emailId}/${index}`;
}

export interface ResolveAttachmentsDeps {
  blobs: Pick<BlobStore, 'put' | 'head' | 'copy'>;
  /** Needed when the request references uploads (`attachment_id`); without it such a send is refused. */
  uploads?: Pick<AttachmentUploadRepository, 'get'>;
  /** For upload expiry; the system clock when absent. */
  clock?: Clock;
}

export interface ResolveAttachmentsOptions {
  /** UTF-8 bytes of the html and text bodies, counted in the message size estimate. */
  bodyBytes?: number;
  /**
   * The tenant the sending credential is limited to (null or absent: the whole account). Such a
   * credential may reference only its tenant's uploads, as it may only see them (assertVisible).
   */
  limitedTenant?: string | null;
  /** The account's retention class's key prefix (`retention/30d/`: docs/retention.md); the S3 lifecycle rule of that prefix expires the bytes. */
  keyPrefix?: string;
}

type FieldProblem = { field: string; message: string };

/** A reference checked against its upload and the object in the bucket. */
interface CheckedReference {
  reference: AttachmentReference;
  upload: AttachmentUpload;
  object: BlobInfo;
}

const MB = 1_000_000;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

async function checkReference(
  deps: ResolveAttachmentsDeps,
  accountId: string,
  reference: AttachmentReference,
  field: string,
  now: Date,
  limitedTenant: string | null,
): Promise<{ ok: CheckedReference } | { refused: FieldProblem } | { tooLarge: FieldProblem & { size: number } }> {
  const id = reference.attachment_id;
  if (!deps.uploads) {
    return {
      refused: { field, message: 'attachment_id references are not available on this path; send the file inline as data (base64)' },
    };
  }
  const found = await findLiveUpload({ attachmentUploads: deps.uploads }, accountId, id, now);
  // Another tenant's upload is as unknown to a tenant's key as another account's.
  const upload = found && (limitedTenant === null || uploadOwner(found).tenant === limitedTenant) ? found : null;
  if (!upload) {
    return {
      refused: {
        field,
        message: `no attachment ${id} in this account: unknown, expired (uploads are kept 24 hours) or created by another account`,
      },
    };
  }
  const object = await deps.blobs.head(upload.blob_key);
  if (!object) {
    return {
      refused: {
        field,
        message: `attachment ${id} has not been uploaded yet (status pending_upload): PUT the file to its upload URL first`,
      },
    };
  }
  if (object.size > MAX_ATTACHMENT_BYTES) {
    return {
      tooLarge: {
        field,
        size: object.size,
        message: `attachment ${id} is ${object.size} bytes; the limit is ${MAX_ATTACHMENT_BYTES} bytes (10 MB) per attachment`,
      },
    };
  }
  return { ok: { reference, upload, object } };
}

type ReferenceCheck = Awaited<ReturnType<typeof checkReference>>;

/** Throws 422 for references that cannot be used, then 413 for uploads over 10 MB (each naming its fields). */
function refuseBadReferences(checks: readonly (ReferenceCheck | null)[]): void {
  const refused = checks.flatMap((check) => (check && 'refused' in check ? [check.refused] : []));
  if (refused.length > 0) {
    throw new AppError(422, 'validation_error', `Some attachments cannot be used: check ${refused.map((p) => p.field).join(', ')}.`, {
      details: { fields: refused },
      hint: 'Create uploads with POST /attachments, PUT each file to its upload URL, and reference them within 24 hours with the same API account.',
    });
  }
  const tooLarge = checks.flatMap((check) => (check && 'tooLarge' in check ? [check.tooLarge] : []));
  if (tooLarge.length > 0) {
    throw new AppError(413, 'payload_too_large', `Attachments over 10 MB: ${tooLarge.map((p) => p.field).join(', ')}.`, {
      details: { fields: tooLarge.map(({ field, message }) => ({ field, message })), max_size: MAX_ATTACHMENT_BYTES },
      hint: 'Every attachment must be at most 10 MB (10,485,760 bytes).',
    });
  }
}

/** Throws 413 when attachments of these sizes would make the message larger than SES's 40 MB once encoded. */
function refuseOverSesLimit(sizes: readonly number[], bodyBytes: number): void {
  const estimated = estimateMessageBytes(sizes, bodyBytes);
  if (estimated <= SES_MAX_MESSAGE_BYTES) return;
  const total = sizes.reduce((sum, size) => sum + size, 0);
  throw new AppError(
    413,
    'payload_too_large',
    `The attachments add up to ${total} bytes (${mb(total)}), about ${mb(estimated)} once encoded in the message; ` +
      `a message can be at most 40 MB (SES's limit, after base64), which leaves room for about ${mb(MAX_ATTACHMENT_BYTES_PER_MESSAGE)} of attachments.`,
    {
      details: {
        attachments_size: total,
        estimated_message_size: estimated,
        max_message_size: SES_MAX_MESSAGE_BYTES,
        max_attachments_size: MAX_ATTACHMENT_BYTES_PER_MESSAGE,
      },
      hint: 'Send fewer or smaller files per email (split them over several emails), or link to large files instead of attaching them.',
    },
  );
}

/** Stores one attachment's bytes at `blobKey` (a checked upload copied, inline data written) and answers its metadata. */
async function storeAttachment(
  deps: ResolveAttachmentsDeps,
  attachment: AttachmentInput,
  check: ReferenceCheck | null,
  blobKey: string,
): Promise<EmailAttachment> {
  if (check && 'ok' in check) {
    const { reference, upload, object } = check.ok;
    // The copy is of the version just checked: a PUT racing in between fails the copy, not the size rule.
    await deps.blobs.copy(upload.blob_key, blobKey, object.etag ? { ifMatch: object.etag } : {});
    const contentId = reference.content_id;
    return {
      filename: reference.filename ?? upload.filename,
      content_type: reference.content_type ?? upload.content_type,
      size: object.size,
      ...(contentId === undefined ? {} : { content_id: contentId }),
      blob_key: blobKey,
    };
  }
  const inline = attachment as InlineAttachment;
  const bytes = Buffer.from(inline.data, 'base64');
  await deps.blobs.put(blobKey, bytes, inline.content_type);
  return {
    filename: inline.filename,
    content_type: inline.content_type,
    size: bytes.length,
    ...(inline.content_id === undefined ? {} : { content_id: inline.content_id }),
    blob_key: blobKey,
  };
}

/**
 * Checks a send's attachments and stores their bytes under the email: returns the metadata to keep on
 * the email (in request order), or throws, before storing anything:
 *  - 422 validation_error naming `attachments.<i>.attachment_id` for an upload that is unknown, another
 *    account's, expired (same answer for the three) or not uploaded yet;
 *  - 413 payload_too_large for an upload over 10 MB, or for attachments that would make the message
 *    larger than SES's 40 MB (about 29 MB of files).
 */
export async function resolveAttachments(
  deps: ResolveAttachmentsDeps,
  accountId: string,
  emailId: string,
  attachments: readonly AttachmentInput[],
  options: ResolveAttachmentsOptions = {},
): Promise<EmailAttachment[]> {
  const now = deps.clock ? deps.clock.now() : new Date();
  const checks = await Promise.all(
    attachments.map((attachment, index) =>
      isAttachmentReference(attachment)
        ? checkReference(deps, accountId, attachment, `attachments.${index}.attachment_id`, now, options.limitedTenant ?? null)
        : null,
    ),
  );
  refuseBadReferences(checks);
  const sizes = attachments.map((attachment, index) => {
    const check = checks[index];
    return check && 'ok' in check ? check.ok.object.size : (attachment as InlineAttachment).size;
  });
  refuseOverSesLimit(sizes, options.bodyBytes ?? 0);
  return Promise.all(
    attachments.map((attachment, index) =>
      storeAttachment(deps, attachment, checks[index] ?? null, `${options.keyPrefix ?? ''}${attachmentBlobKey(emailId, index)}`),
    ),
  );
}

/**
 * @deprecated Use resolveAttachments, which also resolves `attachment_id` references. Kept for callers
 * not yet moved: inline attachments are stored as before; references are refused (422).
 */
export async function storeAttachments(
  blobs: ResolveAttachmentsDeps['blobs'],
  emailId: string,
  attachments: readonly AttachmentInput[],
): Promise<EmailAttachment[]> {
  return resolveAttachments({ blobs }, '', emailId, attachments);
}

/**
 * Reads the attachments of an email back for composing, in their original order. Only an API send's
 * have blobs of their own: a raw message's (the SMTP relay) are in the message, which is sent as it is.
 */
export async function loadAttachments(blobs: Pick<BlobStore, 'get'>, refs: readonly AttachmentRef[]): Promise<MimeAttachment[]> {
  return Promise.all(
    refs.map(async (ref): Promise<MimeAttachment> => {
      if (ref.blob_key === undefined)
        throw new Error(`attachment ${ref.filename} has no blob of its own: it is a part of the email's raw message`);
      const content = await blobs.get(ref.blob_key);
      return {
        filename: ref.filename,
        contentType: ref.content_type,
        content,
        ...(ref.content_id ? { cid: ref.content_id } : {}),
      };
    }),
  );
}
