/**
 * The send use case behind POST /emails (and, later, the SMTP relay): authorise the sender and
 * recipients, store the email, hand it to the send queue. Nothing is left half-created: if the hand-off
 * fails the stored email is removed and the caller gets 503.
 */
import { domainOf, formatMailbox, parseMailbox } from '../domain/emails/address';
import { toPublicEmail, type Email, type EmailBody } from '../domain/emails/email';
import type { SendRequest } from '../domain/emails/send-request';
import { ForbiddenError, ServiceUnavailableError } from '../domain/errors';
import { newId } from '../domain/ids';
import type { BlobStore, Clock, SendQueue } from '../ports';
import type { EmailRepository, StoredBody } from '../store/emails';
import type { Principal } from './principal';

/** Bodies above this size (bytes of JSON) go to the blob store, far below DynamoDB's 400 KB item limit. */
export const INLINE_BODY_LIMIT = 64 * 1024;

export interface SendEmailDeps {
  emails: EmailRepository;
  sendQueue: SendQueue;
  blobs: BlobStore;
  clock: Clock;
  sandboxDomain: string;
}

export interface SendResult {
  id: string;
  status: 'sent';
}

function addressesOf(list: string[]): string[] {
  return list.map((entry) => parseMailbox(entry)?.email.toLowerCase() ?? entry.toLowerCase());
}

function authoriseSender(deps: SendEmailDeps, principal: Principal, request: SendRequest): void {
  const fromDomain = domainOf(request.from.email);
  if (fromDomain !== deps.sandboxDomain) {
    throw new ForbiddenError(`The domain ${fromDomain} is not verified for this account.`, 'domain_not_verified', {
      details: { domain: fromDomain },
      hint: `Add and verify ${fromDomain} (POST /domains), or send from the sandbox sender <anything>@${deps.sandboxDomain} to your account email.`,
    });
  }
  const recipients = addressesOf([...request.to, ...(request.cc ?? []), ...(request.bcc ?? [])]);
  const refused = [...new Set(recipients.filter((address) => address !== principal.account.email))];
  if (refused.length > 0) {
    throw new ForbiddenError(`The sandbox sender can only send to the account email (${principal.account.email}).`, 'recipient_not_allowed', {
      details: { refused_recipients: refused, allowed_recipients: [principal.account.email] },
      hint: 'Verify a domain and add a payment method to send to anyone.',
    });
  }
}

async function storeBody(deps: SendEmailDeps, emailId: string, body: EmailBody): Promise<StoredBody> {
  const json = JSON.stringify(body);
  if (Buffer.byteLength(json, 'utf8') <= INLINE_BODY_LIMIT) return { inline: body };
  const blobKey = `bodies/${emailId}.json`;
  await deps.blobs.put(blobKey, json, 'application/json');
  return { blobKey };
}

export async function sendEmail(deps: SendEmailDeps, principal: Principal, request: SendRequest): Promise<SendResult> {
  authoriseSender(deps, principal, request);
  const now = deps.clock.now();
  const id = newId('msg', now.getTime());
  const email: Email = {
    id,
    account_id: principal.account.id,
    from: formatMailbox(request.from),
    to: request.to,
    cc: request.cc ?? [],
    bcc: request.bcc ?? [],
    reply_to: request.reply_to ?? [],
    subject: request.subject,
    status: 'queued',
    last_event: 'queued',
    bounce_reason: null,
    bounce_type: null,
    tags: request.tags ?? [],
    headers: request.headers ?? {},
    scheduled_at: null,
    cancelled_at: null,
    sent_at: null,
    delivered_at: null,
    bounced_at: null,
    created_at: now.toISOString(),
    tenant: null,
    provider_message_id: null,
  };
  let body: StoredBody;
  try {
    body = await storeBody(deps, id, { html: request.html, text: request.text });
    await deps.emails.create(email, body);
  } catch (error) {
    throw new ServiceUnavailableError('The email could not be stored. Nothing was sent; retry with the same request.', { cause: error });
  }
  try {
    await deps.sendQueue.enqueue({ email_id: id });
  } catch (error) {
    await deps.emails.deleteQueued(id).catch(() => undefined);
    throw new ServiceUnavailableError('The email could not be queued for delivery. Nothing was sent; retry with the same request.', { cause: error });
  }
  return { id, status: 'sent' };
}

export async function getEmail(deps: { emails: EmailRepository }, principal: Principal, emailId: string) {
  const stored = await deps.emails.get(emailId);
  if (!stored || stored.email.account_id !== principal.account.id) return null;
  return toPublicEmail(stored.email);
}
