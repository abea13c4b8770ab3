/**
 * The content step of a send: where the body and attachment bytes are kept before the email is accepted.
 * Bodies up to INLINE_BODY_LIMIT (2 KB) stay in the email item; larger ones and every attachment go to the
 * blob store. A raw MIME message (the SMTP relay) goes to the blob store whole (`raw/<msg>.eml`) and is
 * delivered as written; its attachments are listed from it (./message-attachments.ts). A template is
 * rendered before this (./template-content.ts); the per-email links (managed unsubscribe, tracking) are
 * added by the send worker as it composes (./managed-links.ts).
 */
import type { EmailBody } from '../../domain/emails/email';
import type { AttachmentRef } from '../../domain/emails/attachments';
import type { SendRequest } from '../../domain/emails/send-request';
import type { BlobStore } from '../../ports/blobs';
import type { Clock } from '../../ports/clock';
import type { AttachmentUploadRepository } from '../../adapters/store/attachment-uploads';
import type { StoredBody, StoredMime } from '../../adapters/store/emails/stored-email';
import { resolveAttachments } from '../attachments/email-attachments';
import { attachmentsOfMessage } from './message-attachments';

/**
 * Bodies above this size (bytes of JSON) go to the blob store. Every later write of the email (claim, sent, the
 * outcome, an open) is billed on the whole item, 1 write unit per KB: a body inline costs its size about five
 * times over (a 30 KB html body was 155 write units an email, $97 per million), one in S3 a PUT and a GET
 * ($5.40 per million) whatever its size. 2 KB is where the two meet: below it the item keeps each write at
 * 3 units or fewer (docs/benchmarks.md, "Bodies and write units").
 */
export const INLINE_BODY_LIMIT = 2 * 1024;

/**
 * `keyPrefix`: the account's retention class (`retention/30d/`: shared/domain/accounts/retention.ts), whose
 * S3 lifecycle rule expires the object; the key is kept in the record, so readers need not know it.
 */
export async function storeBody(blobs: BlobStore, emailId: string, body: EmailBody, keyPrefix = ''): Promise<StoredBody> {
  const json = JSON.stringify(body);
  if (Buffer.byteLength(json, 'utf8') <= INLINE_BODY_LIMIT) return { inline: body };
  const blobKey = `${keyPrefix}bodies/${emailId}.json`;
  await blobs.put(blobKey, json, 'application/json');
  return { blobKey };
}

export interface StoredContent {
  body: StoredBody;
  attachments?: AttachmentRef[];
  /** The raw message, for a send made of one (the SMTP relay). */
  mime?: StoredMime;
}

/** Where a raw MIME message is kept (the email item holds only the key). */
export const mimeBlobKey = (emailId: string) => `raw/${emailId}.eml`;

/**
 * Stores what must live outside the item: the body, inline attachment bytes, and uploaded attachments
 * (POST /attachments) copied under the email; every attachment is checked before anything is stored.
 */
export async function storeContent(
  deps: { blobs: BlobStore; attachmentUploads?: Pick<AttachmentUploadRepository, 'get'>; clock?: Clock },
  {
    accountId,
    limitedTenant,
    keyPrefix = '',
  }: { accountId: string; limitedTenant: string | null /** The retention class's key prefix (docs/retention.md). */; keyPrefix?: string },
  emailId: string,
  request: SendRequest,
  mime?: { raw: Buffer },
): Promise<StoredContent> {
  if (mime) {
    // The message is the content: its body and parts travel in it, byte for byte; the record lists its
    // attachments as an API send's lists them (./message-attachments.ts).
    const blobKey = `${keyPrefix}${mimeBlobKey(emailId)}`;
    const attachments = attachmentsOfMessage(mime.raw);
    await deps.blobs.put(blobKey, mime.raw, 'message/rfc822');
    return { body: { inline: {} }, mime: { blobKey }, ...(attachments.length ? { attachments } : {}) };
  }
  const bodyBytes = Buffer.byteLength(request.html ?? '', 'utf8') + Buffer.byteLength(request.text ?? '', 'utf8');
  const [body, attachments] = await Promise.all([
    storeBody(deps.blobs, emailId, { html: request.html, text: request.text }, keyPrefix),
    request.attachments?.length
      ? resolveAttachments(
          { blobs: deps.blobs, uploads: deps.attachmentUploads, clock: deps.clock },
          accountId,
          emailId,
          request.attachments,
          { bodyBytes, limitedTenant, keyPrefix },
        )
      : Promise.resolve(undefined),
  ]);
  return attachments ? { body, attachments } : { body };
}
