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
import type { EarlyUpload } from './early-body';
import { bodyBlobKey, keptInItem, mimeBlobKey } from './content-keys';

/**
 * The object `early` (./early-body.ts) stored at `blobKey` with this very content, if it did: the accept
 * step then puts nothing.
 * Marks it used, so the send does not delete it.
 */
async function earlyStored(early: EarlyUpload | undefined, blobKey: string, content: string | Buffer): Promise<boolean> {
  if (!early || early.blobKey !== blobKey || early.content !== content || !(await early.stored)) return false;
  early.used = true;
  return true;
}

/**
 * `keyPrefix`: the account's retention class (`retention/30d/`: shared/domain/accounts/retention.ts), whose
 * S3 lifecycle rule expires the object; the key is kept in the record, so readers need not know it.
 * `early`: the same object put when the send started (./early-body.ts), used when it has this key.
 */
export async function storeBody(
  blobs: BlobStore,
  emailId: string,
  body: EmailBody,
  keyPrefix = '',
  early?: EarlyUpload,
): Promise<StoredBody> {
  const json = JSON.stringify(body);
  if (keptInItem({ json })) return { inline: body };
  const blobKey = `${keyPrefix}${bodyBlobKey(emailId)}`;
  if (!(await earlyStored(early, blobKey, json))) await blobs.put(blobKey, json, 'application/json');
  return { blobKey };
}

export interface StoredContent {
  body: StoredBody;
  attachments?: AttachmentRef[];
  /** The raw message, for a send made of one (the SMTP relay). */
  mime?: StoredMime;
}

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
  early?: EarlyUpload,
): Promise<StoredContent> {
  if (mime) {
    // The message is the content: its body and parts travel in it, byte for byte; the record lists its
    // attachments as an API send's lists them (./message-attachments.ts).
    const attachments = attachmentsOfMessage(mime.raw);
    const listed = attachments.length ? { attachments } : {};
    if (keptInItem(mime)) return { body: { inline: {} }, mime: { inline: mime.raw }, ...listed };
    const blobKey = `${keyPrefix}${mimeBlobKey(emailId)}`;
    if (!(await earlyStored(early, blobKey, mime.raw))) await deps.blobs.put(blobKey, mime.raw, 'message/rfc822');
    return { body: { inline: {} }, mime: { blobKey }, ...listed };
  }
  const bodyBytes = Buffer.byteLength(request.html ?? '', 'utf8') + Buffer.byteLength(request.text ?? '', 'utf8');
  const [body, attachments] = await Promise.all([
    storeBody(deps.blobs, emailId, { html: request.html, text: request.text }, keyPrefix, early),
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
