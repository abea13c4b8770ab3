/** What accepting an email asks of the store (./accept.ts), and what it answers. */
import type { UsageReservation } from '#shared/domain/accounts/limits';
import type { Email } from '#shared/domain/emails/email';
import type { ReservedCounter } from '../usage';
import type { AcceptIdempotency } from './email-item';
import type { StoredBody, StoredMime } from './stored-email';

/** What the send core hands the store to accept one email. */
export interface AcceptRequest {
  email: Email;
  body: StoredBody;
  /** The raw message to deliver as written (SMTP relay); absent for a composed email. */
  mime?: StoredMime;
  scheduleVersion?: number;
  /** Places the send takes in each counter (its recipients). */
  count: number;
  /** Capped counters, reserved in the email's transaction (sharded). */
  capped: UsageReservation[];
  /** Uncapped counters: counted by the outbox relay from the email item (`usage_deferred`), not on the request path. */
  uncapped: UsageReservation[];
  /** The idempotency record to create with the email (fails when a live one exists). */
  idempotency?: AcceptIdempotency;
  /**
   * True when the send core made the email's id for this send (not a caller-chosen one: SendOptions.emailId), so
   * no email can have it: an acceptance that is the item alone is then written with its references in one
   * BatchWriteItem, with no condition.
   */
  freshId?: boolean;
  /** The account's emails_days, when the caller has read the account (the send core has): no lookup then. */
  retentionDays?: number;
}

/** Named outcomes of accept (no positional decoding leaves the store). */
export type AcceptOutcome =
  | { kind: 'accepted'; reserved: ReservedCounter[] }
  | { kind: 'limit_reached'; reservation: UsageReservation; used: number }
  | { kind: 'idempotency_taken' }
  /** An email with this id exists already (only a caller-chosen id can: SendOptions.emailId): nothing was written. */
  | { kind: 'email_exists' }
  /** A scheduled email's tenant is no longer live (its deletion has begun): nothing was written. */
  | { kind: 'tenant_gone' };
