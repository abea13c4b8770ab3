/**
 * Content redaction's drop (docs/redaction.md): once SES accepted a redacted email (`store_content: false`),
 * the send worker deletes its body object, its attachments' objects and its raw message (SMTP relay) from
 * the bucket, then removes the inline body and the subject from the record and keeps each attachment's
 * name, type and size only. Objects first: a record never names content that was dropped before it says
 * so, and the readers of a redacted email read no object anyway.
 *
 * The email is already sent: a failure here is logged and does not fail nor retry the send (the content
 * then expires with the account's retention, docs/retention.md).
 */
import type { Email } from '../../domain/emails/email';
import { contentDroppable, REDACTED_SUBJECT } from '../../domain/emails/redaction';
import type { AttachmentRef } from '../../domain/emails/attachments';
import type { EmailDelivery } from '../../adapters/store/emails/delivery';
import type { StoredEmail } from '../../adapters/store/emails/stored-email';
import type { BlobStore } from '../../ports/blobs';
import { logError } from '../../lib/log';
import { rawMessageObjects } from '../emails/raw-message-bytes';

export interface DropContentDeps {
  emails: Partial<Pick<EmailDelivery, 'dropContent'>>;
  blobs: Pick<BlobStore, 'delete'>;
}

/** The objects that hold a stored email's content. */
export function contentObjectKeys(stored: Pick<StoredEmail, 'body' | 'mime'> & { email: Pick<Email, 'attachments'> }): string[] {
  return [
    ...('blobKey' in stored.body ? [stored.body.blobKey] : []),
    ...rawMessageObjects(stored.mime),
    ...(stored.email.attachments ?? []).flatMap((attachment) => (attachment.blob_key ? [attachment.blob_key] : [])),
  ];
}

/** An attachment as a redacted record lists it: name, type, size (and content id), no object. */
export function attachmentMetadata({ filename, content_type, size, content_id }: AttachmentRef): AttachmentRef {
  return { filename, content_type, size, ...(content_id === undefined ? {} : { content_id }) };
}

/**
 * Drops the content of `sent` (the email as recorded sent: provider_message_id set) when it is redacted;
 * answers the email as it now reads (subject dropped), or `sent` unchanged when there is nothing to drop
 * or the drop failed.
 */
export async function dropContentAfterSend(deps: DropContentDeps, stored: StoredEmail, sent: Email, at: string): Promise<Email> {
  if (!contentDroppable(sent)) return sent;
  try {
    if (!deps.emails.dropContent) throw new Error('the email repository given to the send worker cannot drop content');
    await Promise.all(contentObjectKeys(stored).map((key) => deps.blobs.delete(key)));
    const attachments = stored.email.attachments?.map(attachmentMetadata);
    return (await deps.emails.dropContent(sent.id, at, attachments, REDACTED_SUBJECT)) ?? sent;
  } catch (error) {
    logError('redaction: the content of a sent email could not be dropped; it expires with its retention', error, { email_id: sent.id });
    return sent;
  }
}
