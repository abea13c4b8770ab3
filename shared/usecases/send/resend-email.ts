/**
 * POST /emails/{id}/resend: a NEW send built from a stored email of the account (same from, to, cc,
 * bcc, reply_to, subject, body, tags and headers; not scheduled; attachments are not carried over),
 * validated by the send request schema and sent through `sendEmail`, so every rule of a send applies
 * again as of now: the sender's domain must still be verified and allowed for the key, recipients
 * allowed, none suppressed, and the plan and sandbox limits are counted. The original is untouched.
 * A tenant's email is resent as that tenant (named by its id): its pause, stream policy, domains and
 * suppression list apply as of now; a deleted tenant's email cannot be resent (404 naming the tenant).
 * An email that came in as a raw message (the SMTP relay) is resent as that same message, byte for
 * byte, with a new Message-ID (the worker assigns one; the original's would make it a duplicate).
 * A redacted email (`store_content: false`, docs/redaction.md) is not resent: 422.
 */
import { emailOwner, type EmailBody } from '../../domain/emails/email';
import { sendRequestSchema, type ParsedSendRequest } from '../../domain/emails/send-request';
import { AppError, NotFoundError } from '../../domain/errors';
import { fieldNames, issuesToFields } from '../../domain/request-validation';
import { isId } from '../../domain/ids';
import { joinHeaderBlock, splitHeaderBlock } from '../../domain/mime/header-block';
import type { EmailReads } from '../../adapters/store/emails/read';
import type { StoredBody, StoredEmail } from '../../adapters/store/emails/stored-email';
import type { Principal } from '../access/principal';
import { sendEmail, type SendDeps, type SendResult } from './send-email';
import { assertVisible } from '../access/visibility';
import { isRedacted, redactedResendError } from '../../domain/emails/redaction';
import { rawMessageBytes } from '../emails/raw-message-bytes';

async function bodyOf(deps: Pick<SendDeps, 'blobs'>, body: StoredBody): Promise<EmailBody> {
  if ('inline' in body) return body.inline;
  const parsed = JSON.parse((await deps.blobs.get(body.blobKey)).toString('utf8')) as EmailBody;
  return { ...(parsed.html === undefined ? {} : { html: parsed.html }), ...(parsed.text === undefined ? {} : { text: parsed.text }) };
}

/**
 * The send request a stored email was made from, in the request's wire shape, parsed by the same schema
 * as POST /emails (the stored `from` is a formatted mailbox, "Name <a@b>", parsed back by parseMailbox).
 * A stored email that no longer passes today's validation (a rule changed since) is 422.
 */
export async function resendRequestOf(deps: Pick<SendDeps, 'blobs'>, stored: StoredEmail): Promise<ParsedSendRequest> {
  const { email } = stored;
  // A raw message carries its own body: the request stands for its envelope and record fields.
  const body = stored.mime ? { text: '' } : await bodyOf(deps, stored.body);
  const wire = {
    from: email.from,
    to: email.to,
    ...(email.cc.length ? { cc: email.cc } : {}),
    ...(email.bcc.length ? { bcc: email.bcc } : {}),
    ...(email.reply_to.length ? { reply_to: email.reply_to } : {}),
    subject: email.subject,
    ...body,
    ...(email.tags.length ? { tags: email.tags } : {}),
    ...(Object.keys(email.headers ?? {}).length ? { headers: email.headers } : {}),
    ...(email.category ? { category: email.category } : {}),
    // A managed-unsubscribe email gets a fresh link of its own (the worker signs it for the new email).
    ...(email.unsubscribe ? { unsubscribe: true } : {}),
    ...(email.tenant_id ? { tenant: email.tenant_id } : {}),
  };
  const parsed = sendRequestSchema.safeParse(wire);
  if (!parsed.success) {
    const fields = issuesToFields(parsed.error.issues, '(email)');
    throw new AppError(
      422,
      'validation_error',
      `Email ${email.id} cannot be resent as it is: ${fieldNames(fields)} no longer pass validation.`,
      {
        details: { fields },
        hint: 'Send a new email with POST /emails instead.',
      },
    );
  }
  if (!stored.mime) return parsed.data;
  const { text: _placeholder, ...request } = parsed.data;
  return request;
}

/** The stored raw message of an SMTP email, without its Message-ID (a resend is a new message). */
async function rawMessageOf(deps: Pick<SendDeps, 'blobs'>, stored: StoredEmail): Promise<Buffer | undefined> {
  if (!stored.mime) return undefined;
  const { fields, rest } = splitHeaderBlock(await rawMessageBytes(deps.blobs, stored.mime));
  return joinHeaderBlock(
    fields.filter((field) => field.name !== 'message-id'),
    rest,
  );
}

export async function resendEmail(
  deps: SendDeps & { emails: Pick<EmailReads, 'get'> },
  principal: Principal,
  emailId: string,
): Promise<SendResult> {
  // Not an email id at all: unknown, without a read (and without a key DynamoDB would refuse).
  if (!isId('msg', emailId)) throw new NotFoundError('Email', emailId);
  const stored = await deps.emails.get(emailId);
  assertVisible(principal, stored && emailOwner(stored.email), 'Email', emailId);
  // Content redaction (docs/redaction.md): its content is not kept (or will not be), so it is not sent again.
  if (isRedacted(stored!.email)) throw redactedResendError(emailId);
  const raw = await rawMessageOf(deps, stored!);
  return sendEmail(deps, { principal }, await resendRequestOf(deps, stored!), raw ? { mime: { raw } } : {});
}
