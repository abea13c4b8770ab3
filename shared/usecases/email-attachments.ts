/**
 * Attachment bytes live in the blob store, never in the email item (DynamoDB's 400 KB item limit):
 * `attachments/<email_id>/<index>`. The email keeps `AttachmentRef`s (metadata and the blob key).
 */
import type { Attachment, AttachmentRef } from '../domain/emails/attachments';
import type { MimeAttachment } from '../mime/compose';
import type { BlobStore } from '../ports';

export function attachmentBlobKey(emailId: string, index: number): string {
  return `attachments/${emailId}/${index}`;
}

/** Puts each attachment's decoded bytes in the blob store; returns the metadata to keep on the email. */
export async function storeAttachments(blobs: BlobStore, emailId: string, attachments: readonly Attachment[]): Promise<AttachmentRef[]> {
  return Promise.all(
    attachments.map(async (attachment, index): Promise<AttachmentRef> => {
      const blobKey = attachmentBlobKey(emailId, index);
      const bytes = Buffer.from(attachment.data, 'base64');
      await blobs.put(blobKey, bytes, attachment.content_type);
      return {
        filename: attachment.filename,
        content_type: attachment.content_type,
        size: bytes.length,
        ...(attachment.content_id === undefined ? {} : { content_id: attachment.content_id }),
        blob_key: blobKey,
      };
    }),
  );
}

/** Reads the attachments of an email back for composing, in their original order. */
export async function loadAttachments(blobs: BlobStore, refs: readonly AttachmentRef[]): Promise<MimeAttachment[]> {
  return Promise.all(
    refs.map(async (ref): Promise<MimeAttachment> => {
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
