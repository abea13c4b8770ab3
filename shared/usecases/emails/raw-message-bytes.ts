/**
 * The bytes of an SMTP relay email's raw message, wherever it is kept (shared/adapters/store/emails/stored-email.ts,
 * StoredMime): in the item when small, else in the blob store (one GET). The send worker, the content
 * reader and a resend read it through here.
 */
import type { StoredMime } from '../../adapters/store/emails/stored-email';
import type { BlobStore } from '../../ports/blobs';

export async function rawMessageBytes(blobs: Pick<BlobStore, 'get'>, mime: StoredMime): Promise<Buffer> {
  return 'inline' in mime ? mime.inline : blobs.get(mime.blobKey);
}

/** The blob store's object of a raw message; none when it is kept in the item. */
export const rawMessageObjects = (mime: StoredMime | undefined): string[] => (mime && 'blobKey' in mime ? [mime.blobKey] : []);
