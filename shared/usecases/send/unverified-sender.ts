/**
 * SES refusing a send because it does not count our sending domain as verified (MessageRejected "Email
 * address is not verified", naming only the sender; MailerError.senderNotVerified). The domain is verified
 * in our store only once SES said it could send from it (docs/domains.md), so this is SES re-checking or
 * catching up: transient for a bounded time, then a permanent failure like any other MessageRejected.
 * The bound stays inside the send queue's redelivery budget (60 s visibility, 5 receives: infra/definitions/queues.ts),
 * so such an email fails with SES's reason rather than reaching the DLQ.
 */
import type { MailerError } from '../../ports/mail';

export const UNVERIFIED_SENDER_GRACE_MS = 4 * 60 * 1000;

/** True when the error is SES's unverified-sender refusal and the email has waited for SES long enough. */
export function unverifiedSenderGaveUp(error: MailerError, email: { created_at: string; scheduled_at: string | null }, now: Date): boolean {
  if (!error.senderNotVerified) return false;
  const due = Date.parse(email.scheduled_at ?? email.created_at);
  return now.getTime() - due >= UNVERIFIED_SENDER_GRACE_MS;
}
