/** The emails' store (docs/reference/data.md): each email from acceptance to outcome, their listing, and attachments uploaded ahead. */
import { AttachmentUploadRepository } from '../adapters/store/attachment-uploads';
import { EmailListingRepository } from '../adapters/store/email-listing';
import { EmailRepository } from '../adapters/store/emails/repository';
import { IdempotencyStore } from '../adapters/store/idempotency';
import type { Platform } from './platform';

export function buildEmails({ config, table }: Pick<Platform, 'config' | 'table'>) {
  return {
    // An accepted email's idempotency record is written with it (the store is stateless: access's is the same table's).
    emails: new EmailRepository(table, new IdempotencyStore(table), config.recovery),
    emailListing: new EmailListingRepository(table),
    attachmentUploads: new AttachmentUploadRepository(table),
  };
}

export type EmailServices = ReturnType<typeof buildEmails>;
