/**
 * The send core's ports, options and answer (sendEmail, ./send-email.ts): a module of their own, so each step
 * (./check-policy.ts, ./accept-email.ts) takes them without importing the pipeline that calls it.
 */
import type { Idempotency } from '../../domain/emails/idempotency';
import type { BlobStore } from '../../ports/blobs';
import type { Clock } from '../../ports/clock';
import type { EmailScheduler } from '../../ports/scheduling';
import type { AttachmentUploadRepository } from '../../adapters/store/attachment-uploads';
import type { EmailAcceptance } from '../../adapters/store/emails/accept';
import type { IdempotencyStore } from '../../adapters/store/idempotency';
import type { RateLimitRepository } from '../../adapters/store/rate-limits';
import type { UsageLedger } from '../../adapters/store/usage';
import type { TenantRampDeps } from '../tenants/tenant-ramp';
import type { MailDomains } from '../address-validation/mail-domains';
import type { ClearedRecipients } from './cleared-recipients';
import type { SendContextLoader } from './send-context-loader';
import type { EarlyBodies } from './early-body';

export interface SendDeps {
  /** Everything the send is decided on, in one round trip (one per process: shared/services/sending.ts). */
  sendContextLoader: Pick<SendContextLoader, 'load'>;
  tenants: TenantRampDeps['tenants'];
  emails: Pick<EmailAcceptance, 'accept' | 'create'>;
  usage: Pick<UsageLedger, 'current' | 'shardCounts'>;
  tenantStats: TenantRampDeps['tenantStats'];
  idempotency: Pick<IdempotencyStore, 'get'>;
  scheduler: EmailScheduler;
  blobs: BlobStore;
  /**
   * A large body's PUT beside the send's read (./early-body.ts; one per process). Absent: the body is put
   * after the read, one round trip more.
   */
  earlyBodies?: Pick<EarlyBodies, 'start' | 'remember' | 'discard'>;
  attachmentUploads?: Pick<AttachmentUploadRepository, 'get'>;
  /** The recipients' mail hosts, for `validate: true` only (../address-validation/refuse-undeliverable.ts). */
  mailDomains: Pick<MailDomains, 'check'>;
  /** The validation allowance `validate: true` counts against (../address-validation/validation-allowance.ts). */
  rateLimits: Pick<RateLimitRepository, 'hit'>;
  clock: Clock;
  sandboxDomain: string;
  dashboardUrl: string;
}

export interface SendResult {
  id: string;
  status: 'sent' | 'scheduled';
}

export interface SendOptions {
  idempotency?: Idempotency;
  /**
   * The email's id, chosen by the caller instead of a new one (an automation step's, derived from its run and
   * step): the email's own conditional put is then what keeps a second send of it from being accepted, as an
   * idempotency record would, with no record to read or write. A send whose email is there already throws
   * EmailExists (./accept-email.ts) and stores nothing.
   */
  emailId?: string;
  /**
   * A raw MIME message to deliver as written (the SMTP relay): `request` then carries what was read from
   * its headers (from, recipients, subject, tags, ...) and no html/text; the message goes to the blob store.
   */
  mime?: { raw: Buffer };
  /**
   * Recipients this door found on none of the suppression lists a moment ago, for the lists of `tenantId` (the
   * SMTP relay's RCPT TO, at most CLEARED_RECIPIENTS_MAX_AGE_MS ago): the send does not read their suppressions
   * again (their category opt-outs still are). Ignored when the send turns out to be for another tenant.
   */
  clearedRecipients?: ClearedRecipients;
}
