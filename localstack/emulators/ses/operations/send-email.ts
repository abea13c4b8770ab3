/**
 * SendEmail (POST /v2/email/outbound-emails; https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html)
 * in named steps: the request (../send-request.ts), the envelope (../send-envelope.ts), the tenant's,
 * identities' and account's checks, the events owed (../outbox.ts), the message stored (../send-accepted.ts).
 */
import { sesId } from '../ids';
import { decodeHeaders, headerValue, parseHeaderFields } from '../mime';
import { planOutbox } from '../outbox';
import type { SesRequest } from '../request';
import { envelopeRecipients, envelopeSender } from '../send-envelope';
import { eventMailOf, storeAccepted } from '../send-accepted';
import { messageBytes, parseSendRequest, sendingConfigSet } from '../send-request';
import type { SesState } from '../state';
import { checkTenantSend } from '../tenants';
import type { OperationResult } from '../types';

export async function sendEmail(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const send = parseSendRequest(body);
  const configSet = sendingConfigSet(state.store, body);
  const now = new Date();
  const id = sesId(now.getTime());
  const raw = await messageBytes(send, { id, now, region: state.region });
  const headers = parseHeaderFields(raw);
  const decoded = await decodeHeaders(raw);
  const sender = envelopeSender(send.fromEmailAddress, decoded);
  // A send through a tenant may use only the tenant's resources: its identity and configuration set.
  const tenantName =
    body.TenantName === undefined || body.TenantName === null
      ? null
      : checkTenantSend(state, body.TenantName, sender.sourceAddress, configSet?.name);
  const recipients = envelopeRecipients([...send.to, ...send.cc, ...send.bcc], decoded);
  await state.verifier.checkSend(sender.sourceAddress, recipients);
  // Account pause, suspension, send rate and daily quota, per recipient (account-limits.ts).
  state.account.admitSend(recipients.length);

  // The events this message owes are fixed now and stored with it, before the answer: a crash
  // after the answer can delay them, never lose them (see outbox.ts and publisher.ts).
  // A recipient on the send's suppression list is not sent (bounce-aftermath.ts, suppression-list.ts).
  const bouncePlan = state.bounces.plan(configSet, tenantName, recipients);
  const outbox = configSet
    ? planOutbox(configSet, recipients, now, state.outcomeDelayMs, { ...state.events, outcomeOf: bouncePlan.outcomeOf })
    : [];
  const accepted = { id, now, sender, recipients, headers, decoded, configSet, emailTags: send.emailTags, tenantName };
  const eventMail = configSet && outbox.length > 0 ? eventMailOf(state, { ...accepted, configSet }) : null;
  const message = await storeAccepted(state, accepted, raw, { outbox, eventMail });
  // Hard bounces and complaints onto the suppression list, feedback mail into the mailbox.
  const returnPath = headerValue(headers, 'Return-Path');
  await state.bounces.accepted(bouncePlan, { message, sourceAddress: sender.sourceAddress, returnPath, configSet, acceptedAt: now });
  if (outbox.length === 0) return { body: { MessageId: id } };
  return { body: { MessageId: id }, afterResponse: () => state.publisher.run(message) };
}
