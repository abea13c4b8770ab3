/** The email record a send creates, from what the send-context loader resolved (queued, or scheduled for `at`). */
import type { Email } from '../../domain/emails/email';
import { newId } from '../../domain/ids';
import { formatMailbox } from '../../domain/mail/address';
import type { ResolvedSendContext } from './resolved-send-context';
import { storesContent } from '../../domain/emails/redaction';

/** `id`: the email's id when the send made it already (its body's key: ./early-body.ts); else a new one. */
export function newEmail(facts: ResolvedSendContext, now: Date, at: Date | null, id = newId('msg', now.getTime())): Email {
  const { principal, request, category } = facts;
  const tenant = facts.tenant?.tenant ?? null;
  return {
    id,
    account_id: principal.account.id,
    from: formatMailbox(facts.sender.from),
    to: request.to,
    cc: request.cc ?? [],
    bcc: request.bcc ?? [],
    reply_to: request.reply_to ?? [],
    subject: request.subject,
    status: at ? 'scheduled' : 'queued',
    last_event: at ? 'scheduled' : 'queued',
    bounce_reason: null,
    bounce_type: null,
    tags: request.tags ?? [],
    headers: request.headers ?? {},
    scheduled_at: at ? at.toISOString() : null,
    cancelled_at: null,
    sent_at: null,
    delivered_at: null,
    bounced_at: null,
    created_at: now.toISOString(),
    tenant: tenant?.external_id ?? null,
    tenant_id: tenant?.id ?? null,
    category,
    provider_message_id: null,
    ...(request.unsubscribe ? { unsubscribe: true } : {}),
    ...(request.track_opens === undefined ? {} : { track_opens: request.track_opens }),
    ...(request.track_clicks === undefined ? {} : { track_clicks: request.track_clicks }),
    ...(request.from_template ? { template: request.from_template } : {}),
    // Content redaction (docs/redaction.md): the account's or the request's store_content: false, off wins.
    ...(storesContent(principal.account, request) ? {} : { store_content: false }),
  };
}
