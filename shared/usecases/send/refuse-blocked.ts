/**
 * A send to a suppressed or opted-out recipient is refused (422) but kept: a failed email (its id in the
 * error) whose item carries the email.suppressed event's details, published by the outbox from the write.
 */
import type { Email } from '../../domain/emails/email';
import type { SendRequest } from '../../domain/emails/send-request';
import { ServiceUnavailableError } from '../../domain/errors';
import { storeBody } from './content';
import { blockedError, blockedReason, type Blocked } from './policy';
import type { SendDeps } from './send-deps';

export async function refuseBlocked(
  deps: Pick<SendDeps, 'emails' | 'blobs'>,
  request: SendRequest,
  email: Email,
  blocked: Blocked,
): Promise<never> {
  const refused: Email = {
    ...email,
    status: 'failed',
    last_event: 'suppressed',
    bounce_reason: blockedReason(blocked),
    scheduled_at: null,
  };
  const details = blocked.suppressed.length
    ? { suppressed: blocked.suppressed, reason: 'suppressed' }
    : { category_unsubscribed: blocked.optedOut, category: blocked.category, reason: 'category_unsubscribed' };
  try {
    // Like an accepted email's, a large body goes to the blob store: inline, it could pass the 400 KB item limit.
    await deps.emails.create(refused, await storeBody(deps.blobs, email.id, { html: request.html, text: request.text }), {
      suppressed_event: details,
    });
  } catch (error) {
    throw new ServiceUnavailableError('The email could not be stored. Nothing was sent; retry with the same request.', { cause: error });
  }
  throw blockedError(blocked, email.id);
}
