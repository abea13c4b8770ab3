/**
 * One `POST /v3/{domain}/messages`, from the parsed form to Mailgun's answer, through the one send core:
 * `sendEmail` for a message, `sendBatch` (strict: nothing is sent when any email is invalid) for Mailgun's
 * batch sending (`recipient-variables`). No sending rule lives here (docs/compat.md, "Mailgun").
 *
 * The path's `{domain}`: when it is the `from` address's domain (the usual case) the send core's sender
 * check is the check (a domain this account does not have: 404 `Domain not found`). Otherwise it must be
 * a domain of this account (any state) or the sandbox domain, as Mailgun lets a domain send `from`
 * another name; then `from` is checked by the send core as any send's is.
 */
import { sendRequestSchema } from '#shared/domain/emails/send-request';
import { domainOf, parseMailbox } from '#shared/domain/mail/address';
import { parseWith } from '#shared/domain/request-validation';
import type { Principal } from '#shared/usecases/access/principal';
import { authenticateKeyHash } from '#shared/usecases/access/authenticate';
import { sendEmail } from '#shared/usecases/send';
import { sendBatch } from '#shared/usecases/send/send-batch';
import type { CompatServices } from '../services';
import { appErrorOf, domainNotFound, queued, type MailgunAnswer } from './answers';
import { mailgunMessageSchema } from './message-schema';
import type { MailgunForm } from './read-form';
import { toSendRequest, type MappedSend } from './to-send-request';

export interface MailgunSend {
  apiKeyHash: string;
  /** The path's `{domain}`, lower-cased. */
  domain: string;
  form: MailgunForm;
  /** `X-Mailgun-On-Behalf-Of` (a subaccount): our tenant. */
  onBehalfOf?: string;
}

/** The request mapped; a bad request from a bad caller is answered as a bad caller (401/403 before 400). */
async function mapped(services: CompatServices, send: MailgunSend): Promise<MappedSend> {
  try {
    const message = parseWith(mailgunMessageSchema, send.form.fields);
    return toSendRequest(message, {
      domain: send.domain,
      files: send.form.files,
      ...(send.onBehalfOf !== undefined ? { onBehalfOf: send.onBehalfOf } : {}),
    });
  } catch (error) {
    await services.sendContextLoader.refuseCallerFirst({ apiKeyHash: send.apiKeyHash }, services.clock.now());
    throw error;
  }
}

const fromDomainOf = (request: Record<string, unknown>): string | null => {
  const mailbox = typeof request.from === 'string' ? parseMailbox(request.from) : null;
  return mailbox ? domainOf(mailbox.email) : null;
};

/** Whether the path's domain may be used by this account (when it is not the sender's own). */
async function pathDomainKnown(services: CompatServices, principal: Principal, domain: string): Promise<boolean> {
  if (domain === services.sandboxDomain.toLowerCase()) return true;
  return (await services.domains.findOwned(principal.account.id, domain)) !== null;
}

export async function sendMailgunMessage(services: CompatServices, send: MailgunSend): Promise<MailgunAnswer> {
  const mapping = await mapped(services, send);
  const first = mapping.kind === 'single' ? mapping.request : mapping.items[0]!;
  const senderDomain = fromDomainOf(first);
  let principal: Principal | undefined;
  if (mapping.kind === 'batch' || senderDomain !== send.domain) principal = await authenticateKeyHash(services, send.apiKeyHash);
  if (principal && senderDomain !== send.domain && !(await pathDomainKnown(services, principal, send.domain)))
    return domainNotFound(send.domain);

  if (mapping.kind === 'single') {
    const request = parseWith(sendRequestSchema, mapping.request);
    const result = await sendEmail(services, principal ? { principal } : { apiKeyHash: send.apiKeyHash }, request);
    return queued(result.id, send.domain);
  }

  const { data } = await sendBatch(services, principal!, mapping.items, undefined, 'strict');
  const accepted = data.filter((item) => item.id !== null);
  if (accepted.length === 0) throw appErrorOf(data[0]!.error!);
  const answer = queued(accepted[0]!.id!, send.domain);
  const refused = data.filter((item) => item.id === null);
  if (refused.length === 0) return answer;
  // Mailgun queues a batch whole; an email refused here (e.g. a recipient the sandbox may not reach) is named.
  const failed = refused.map((item) => ({
    to: (mapping.items[item.index]!.to as string[])[0]!,
    message: item.error?.message ?? 'refused',
  }));
  return { ...answer, body: { ...(answer.body as { id: string; message: string }), failed } };
}
