/**
 * Content redaction (docs/redaction.md): an email sent with `store_content: false` (its own, or its
 * account's setting) is delivered with its body, attachments and subject, and then not kept: once SES
 * accepted the message the send worker drops them from the bucket and the record. Pure rules here; the
 * send core marks the email (shared/usecases/send/accept-email.ts), the send worker drops the content
 * (shared/usecases/delivery/drop-content.ts).
 */
import { AppError } from '../errors';
import type { Email } from './email';

/**
 * Whether an email keeps its content: the account's setting and the request's, where off wins. A send may
 * turn storing off on an account that keeps content, never on for an account that keeps none.
 */
export function storesContent(account: { store_content?: boolean }, request: { store_content?: boolean }): boolean {
  return account.store_content !== false && request.store_content !== false;
}

/** The subject a redacted email's record keeps once its content is dropped: none (it often names a person). */
export const REDACTED_SUBJECT = '';

/** Whether the email's content is (or will be, once sent) not kept. */
export const isRedacted = (email: Pick<Email, 'store_content'>): boolean => email.store_content === false;

/**
 * Whether the content may be dropped now: only once the provider accepted the message (a queued or
 * scheduled email still needs it: a scheduled one keeps it until it is sent), and only once.
 */
export function contentDroppable(email: Pick<Email, 'store_content' | 'content_dropped_at' | 'provider_message_id'>): boolean {
  return isRedacted(email) && !email.content_dropped_at && email.provider_message_id !== null;
}

/** POST /emails/{id}/resend of a redacted email: there is nothing to send again (422, not a 500 nor an empty send). */
export function redactedResendError(emailId: string): AppError {
  return new AppError(
    422,
    'validation_error',
    `Email ${emailId} cannot be resent: it was sent with store_content: false, so its content was not kept.`,
    {
      hint: 'Send a new email with POST /emails instead.',
    },
  );
}

/** What the dashboard and the docs call the state of a redacted email's content. */
export const CONTENT_NOT_KEPT = 'content not kept';
