/**
 * A message SendEmail accepted: the `mail` object of the events it owes (./events.ts), and the message
 * stored with it (the bytes SES delivers, ./delivered-bytes.ts) before the answer, so the events published
 * later, even after a restart, carry what SES saw when it accepted it.
 */
import { deliveredBytes } from './delivered-bytes';
import { buildMailObject, type CommonHeaders, type MailHeader, type SesMailObject } from './events';
import { formatMailbox, headerValue, type DecodedHeaders } from './mime';
import type { EnvelopeSender } from './send-envelope';
import type { SesState } from './state';
import type { ConfigurationSet, OutboxEntry, StoredMessage } from './types';

export interface AcceptedMessage {
  id: string;
  now: Date;
  sender: EnvelopeSender;
  recipients: string[];
  headers: MailHeader[];
  decoded: DecodedHeaders;
  configSet: ConfigurationSet | undefined;
  emailTags: Record<string, string>;
  tenantName: string | null;
}

export function eventMailOf(state: SesState, m: AcceptedMessage & { configSet: ConfigurationSet }): SesMailObject {
  const { decoded, headers } = m;
  const commonHeaders: CommonHeaders = {
    from: decoded.from.length > 0 ? decoded.from.map(formatMailbox) : [m.sender.source],
    ...(decoded.replyTo.length > 0 ? { replyTo: decoded.replyTo.map(formatMailbox) } : {}),
    ...(decoded.to.length > 0 ? { to: decoded.to.map(formatMailbox) } : {}),
    ...(decoded.cc.length > 0 ? { cc: decoded.cc.map(formatMailbox) } : {}),
    ...(decoded.bcc.length > 0 ? { bcc: decoded.bcc.map(formatMailbox) } : {}),
    date: headerValue(headers, 'Date') ?? m.now.toUTCString(),
    // The original message's Message-ID (SES's own only when it had none): see ./message-id.ts.
    messageId: headerValue(headers, 'Message-ID') ?? m.id,
    subject: decoded.subject,
  };
  return buildMailObject({
    messageId: m.id,
    timestamp: m.now.toISOString(),
    source: m.sender.source,
    sourceAddress: m.sender.sourceAddress,
    region: state.region,
    accountId: state.accountId,
    destination: m.recipients,
    headers,
    commonHeaders,
    configurationSet: m.configSet.name,
    emailTags: m.emailTags,
    tenantName: m.tenantName,
  });
}

/** Resolves once the message and its outbox are on disk (with a data directory). */
export async function storeAccepted(
  state: SesState,
  m: AcceptedMessage,
  raw: Buffer,
  owed: { outbox: OutboxEntry[]; eventMail: SesMailObject | null },
): Promise<StoredMessage> {
  const { id, now, configSet } = m;
  const fromAddress = m.decoded.from[0]?.address ?? m.sender.sourceAddress;
  return state.store.addMessage({
    id,
    receivedAt: now.toISOString(),
    from: m.sender.source,
    to: m.recipients,
    subject: m.decoded.subject,
    configurationSet: configSet?.name ?? null,
    tags: m.emailTags,
    tenantName: m.tenantName,
    raw: await deliveredBytes(state.store, { raw, messageId: id, region: state.region, acceptedAt: now, configSet, fromAddress }),
    outbox: owed.outbox,
    eventMail: owed.eventMail,
  });
}
