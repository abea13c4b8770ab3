/**
 * The inbound worker's use case: one stored message for one receiving account becomes a received-email
 * record and an email.received event.
 *
 * 1. The raw message is read from the bucket (the MX listener wrote it before its 250).
 * 2. It is parsed (never throws: a broken message gives what could be read and `parse_error`). Its
 *    sender's authentication (SPF, DKIM, DMARC) comes with the queue message: the MX listener checked it
 *    at the end of DATA (checks that could not run are `temperror`; so is a message queued before the
 *    listener checked, which has none). The spam verdict is derived from it.
 * 3. Bodies, the header list, the attachments and the account's copy of the raw message are written under
 *    `<prefix>inbound/<inb id>/`, the prefix the account's retention class (`retention/<days>d/`, kept on
 *    the record as `objects_prefix`: docs/retention.md): small bodies and the header list as one object
 *    (`content.json`), larger bodies each on their own. The listener's shared raw message expires by its
 *    own rule (`inbound/raw/`, INBOUND_RAW_DAYS); the record's `raw_key` names the account's copy.
 * 4. The record is put if absent (its id was chosen by the listener): a message processed twice, after
 *    a crash or a duplicate queue delivery, makes one record.
 * 5. email.received is published (to the endpoints the domain's routes choose: none when every recipient's route
 *    stores only or forwards) with an id derived from the email, so publishing again (a retry after a
 *    crash between 4 and 5) is delivered once; when the record existed, the event is built from it.
 * 6. The domain's forward routes that hold for its recipients send it on, each once (./forward-received.ts).
 * A receiving domain with `inbound_store_content: false` keeps no content: ./inbound-redaction.ts.
 * Only infrastructure failures throw (the queue retries, then its DLQ keeps the message; the raw
 * message stays). Every step is idempotent.
 *
 * The worker's entry is receiveQueuedInbound: the raw message is claimed first (one conditional write on
 * its marker, shared/adapters/store/inbound-raw-markers.ts), so it is never deleted while it is recorded; a
 * message of a raw message the listener discarded (it answered no 250; the sender sends it again) is
 * dropped instead.
 */
import { CONTENT_OBJECT_MAX_BODY_BYTES, inboundKeys, receivedEmailKeys, type InboundContent } from '../../domain/inbound/content-keys';
import { firstPlusPart } from '../../domain/inbound/address';
import { uncheckedAuthentication, type Authentication, type AuthenticationChecks } from '../../domain/inbound/authentication';
import { autoSubmitted } from '../../domain/inbound/auto-submitted';
import {
  MAX_LIST_ENTRIES,
  MAX_SUBJECT_CHARS,
  STRIPPED_TEXT_MAX,
  receivedEventData,
  type ReceivedEmail,
} from '../../domain/inbound/received-email';
import { boundedList, clipUtf8, MAX_ATTACHMENT_FIELD_BYTES, MAX_VALUE_BYTES } from '../../domain/inbound/record-bounds';
import { stripReply } from '../../domain/inbound/reply-text';
import { spamVerdict } from '../../domain/inbound/spam';
import type { InboundMessage } from '../../domain/messages';
import { receivedAddressesNamed } from '../../domain/privacy/named-addresses';
import { emailEventId } from '../../domain/webhooks/event';
import type { ParsedAttachment, ParsedInbound } from '../../domain/inbound/parsed-message';
import { logInfo, logWarn } from '../../lib/log';
import type { BlobStore } from '../../ports/blobs';
import type { Clock } from '../../ports/clock';
import type { EventPublisher } from '../../ports/events';
import type { CreateReceivedOutcome, ReceivedEmailRepository } from '../../adapters/store/received-emails';
import type { InboundRawMarkerRepository } from '../../adapters/store/inbound-raw-markers';
import { mapBounded } from '../../lib/concurrency';
import { ingestDmarcReports, type IngestReportsDeps } from '../dmarc/ingest-reports';
import {
  EMPTY_CONTENT,
  receivingSettings,
  redactedReceivedEmail,
  type ForwardSender,
  type InboundRedactionDeps,
} from './inbound-redaction';
import { receivedAudience } from '../../domain/domains/inbound-routes';
import { forwardReceived, type ForwardReceivedDeps } from './forward-received';

export interface ProcessInboundDeps extends InboundRedactionDeps {
  /** `delete`: the raw message of a domain that keeps no content (./inbound-redaction.ts). */
  blobs: Pick<BlobStore, 'get' | 'put'> & Partial<Pick<BlobStore, 'delete'>>;
  receivedEmails: Pick<ReceivedEmailRepository, 'create' | 'get' | 'objectsPrefix'>;
  events: EventPublisher;
  clock: Clock;
  parseInbound(raw: Buffer): Promise<ParsedInbound>;
  /** The send core, for forward routes (absent in doubles of other rules: a forward route then throws). */
  forwarding?: ForwardReceivedDeps;
}

/** The worker's: the raw message's marker, and DMARC reports' stores (../dmarc/ingest-reports.ts). */
export interface ReceiveQueuedInboundDeps extends ProcessInboundDeps, Omit<IngestReportsDeps, 'domains'> {
  inboundRawMarkers: Pick<InboundRawMarkerRepository, 'claim'>;
  domains: IngestReportsDeps['domains'];
}

/**
 * One inbound queue message: claimed and processed, or dropped when its raw message was discarded (never
 * accepted). Once recorded, a message sent to a domain's DMARC report address has its reports counted
 * (../dmarc/ingest-reports.ts: never fails the message).
 */
export async function receiveQueuedInbound(
  deps: ReceiveQueuedInboundDeps,
  message: InboundMessage,
): Promise<CreateReceivedOutcome | 'dropped'> {
  if ((await deps.inboundRawMarkers.claim(message.raw_key, deps.clock.now())) === 'discarded') {
    logInfo('inbound: dropped: its raw message was not accepted (no 250; the sender sends it again)', {
      email_id: message.email_id,
      account_id: message.account_id,
      raw_key: message.raw_key,
    });
    return 'dropped';
  }
  const { outcome, parsed } = await processInbound(deps, message);
  await ingestDmarcReports(deps, message, parsed);
  return outcome;
}

export async function processInbound(
  deps: ProcessInboundDeps,
  message: InboundMessage,
): Promise<{ outcome: CreateReceivedOutcome; email: ReceivedEmail; parsed: ParsedInbound }> {
  const [raw, { keepContent, routes, sender }, prefix] = await Promise.all([
    deps.blobs.get(message.raw_key),
    receivingSettings(deps, message),
    deps.receivedEmails.objectsPrefix(message.account_id, message.received_at, deps.clock.now()),
  ]);
  const parsed = await deps.parseInbound(raw);
  const checked = checksOf(message);
  const verdict = spamVerdict({ ...checked, spam_reasons: [] });
  const authentication: Authentication = { ...checked, spam_reasons: verdict.reasons };
  const id = message.email_id;
  const attachments = parsed.attachments.map((attachment, index) => ({ ...attachment, id: `att_${index + 1}` }));
  const stored = await storeContent(deps, { id, prefix, raw, parsed, attachments, keepContent });
  const parsedEmail = receivedRecord(message, parsed, attachments, {
    ...stored,
    keepContent,
    prefix,
    spamStatus: verdict.status,
    authentication,
    createdAt: deps.clock.now().toISOString(),
  });
  const email = keepContent ? parsedEmail : redactedReceivedEmail(parsedEmail);
  // The people it names, from the whole message (the record's lists may be cut): what an erasure finds it by.
  const named = receivedAddressesNamed({
    from: parsed.from,
    reply_to: parsed.reply_to,
    to: parsed.to,
    cc: parsed.cc,
    mail_from: message.mail_from,
    rcpt_to: message.rcpt_to,
  });
  const outcome = await deps.receivedEmails.create(email, named);
  // Processed before (a retry after a crash, a duplicate delivery): the event describes the stored record,
  // not this run's (a worker deployed since may read the message otherwise).
  const recorded = outcome === 'exists' ? ((await deps.receivedEmails.get(email.account_id, id)) ?? email) : email;
  // The domain's routes choose who gets email.received for this account's recipients (docs/inbound.md, "Routes").
  const audience = receivedAudience(routes, message.rcpt_to, message.mail_from);
  if (audience.kind !== 'none') await publishReceived(deps, email, recorded, audience.kind === 'only' ? audience.webhookIds : undefined);
  await forward(deps, { message, raw, parsed, routes, sender, authentication: checked, spamStatus: verdict.status });
  // Content not kept: the raw message goes once the record and its event are written (a retry before this still finds it).
  if (!keepContent) {
    if (!deps.blobs.delete) throw new Error('the inbound worker needs blobs.delete to drop a raw message');
    await deps.blobs.delete(message.raw_key);
  }
  logInfo('inbound: received', {
    email_id: id,
    account_id: email.account_id,
    outcome,
    bytes: email.size,
    spam_status: email.spam_status,
    attachments: email.attachment_count,
    parse_error: email.parse_error,
  });
  return { outcome, email: recorded, parsed };
}

/** The forward routes' sends (./forward-received.ts), when the domain has any that hold. */
async function forward(
  deps: Pick<ProcessInboundDeps, 'forwarding'>,
  facts: Omit<Parameters<typeof forwardReceived>[1], 'sender'> & { sender: ForwardSender | null },
): Promise<void> {
  if (facts.sender === null || !facts.routes.some((route) => route.action.type === 'forward')) return;
  if (!deps.forwarding) throw new Error('the inbound worker needs the send core (forwarding) for forward routes');
  await forwardReceived(deps.forwarding, { ...facts, sender: facts.sender });
}

type StoredAttachment = ParsedAttachment & { id: string };

/** Where the content went and how large its bodies are, for the record. */
interface StoredContent {
  rawCopyKey: string;
  htmlBytes: number | null;
  textBytes: number | null;
  contentObject: boolean;
}

/**
 * Writes the message's content under the email's prefix: the bodies, the header list, the attachments and
 * the account's copy of the raw message; for a domain that keeps no content (./inbound-redaction.ts), an
 * empty content object and nothing of the message.
 */
async function storeContent(
  deps: Pick<ProcessInboundDeps, 'blobs'>,
  {
    id,
    prefix,
    raw,
    parsed,
    attachments,
    keepContent,
  }: { id: string; prefix: string; raw: Buffer; parsed: ParsedInbound; attachments: StoredAttachment[]; keepContent: boolean },
): Promise<StoredContent> {
  const keys = receivedEmailKeys({ id, objects_prefix: prefix });
  const rawCopyKey = inboundKeys.rawCopy(id, prefix);
  const htmlBytes = parsed.html === null ? null : Buffer.byteLength(parsed.html);
  const textBytes = parsed.text === null ? null : Buffer.byteLength(parsed.text);
  // Small bodies and the header list as one object (one PUT, not three: S3 PUTs were most of a received
  // message's cost); larger bodies each on their own, so the API can answer them as links.
  const contentObject = (htmlBytes ?? 0) + (textBytes ?? 0) <= CONTENT_OBJECT_MAX_BODY_BYTES;
  const content: InboundContent = { html: parsed.html, text: parsed.text, headers: parsed.headers };
  const writes = keepContent
    ? [
        ...(contentObject
          ? [deps.blobs.put(keys.content, JSON.stringify(content), 'application/json')]
          : [
              parsed.html === null ? undefined : deps.blobs.put(keys.html, parsed.html, 'text/html; charset=utf-8'),
              parsed.text === null ? undefined : deps.blobs.put(keys.text, parsed.text, 'text/plain; charset=utf-8'),
              deps.blobs.put(keys.headers, JSON.stringify(parsed.headers), 'application/json'),
            ]),
        mapBounded(attachments, 8, (attachment) =>
          deps.blobs.put(keys.attachment(attachment.id), attachment.content, attachment.content_type),
        ),
        // The account's own copy, kept as long as its record (the shared one goes by its rule).
        deps.blobs.put(rawCopyKey, raw, 'message/rfc822'),
      ]
    : [deps.blobs.put(keys.content, JSON.stringify(EMPTY_CONTENT), 'application/json')];
  await Promise.all(writes);
  return { rawCopyKey, htmlBytes, textBytes, contentObject };
}

/**
 * The parsed fields as the record keeps them: counts and bytes bounded (../../domain/inbound/record-bounds.ts),
 * since the record must fit DynamoDB's item and its event SQS's message; `truncated` when any was cut.
 */
function boundedFields(parsed: ParsedInbound, attachments: StoredAttachment[]) {
  const lists = {
    to: boundedList(parsed.to, MAX_LIST_ENTRIES),
    cc: boundedList(parsed.cc, MAX_LIST_ENTRIES),
    reply_to: boundedList(parsed.reply_to, MAX_LIST_ENTRIES),
    references: boundedList(parsed.references, MAX_LIST_ENTRIES),
  };
  const single = {
    from: clipUtf8(parsed.from, MAX_VALUE_BYTES),
    message_id: parsed.message_id === null ? null : clipUtf8(parsed.message_id, MAX_VALUE_BYTES),
    in_reply_to: parsed.in_reply_to === null ? null : clipUtf8(parsed.in_reply_to, MAX_VALUE_BYTES),
  };
  const attachmentField = (value: string) => clipUtf8(value, MAX_ATTACHMENT_FIELD_BYTES);
  const attachmentFieldsCut = attachments.some((a) =>
    [a.filename, a.content_type, a.content_id].some((value) => value !== null && attachmentField(value).cut),
  );
  const truncated =
    Object.values(lists).some((list) => list.cut) ||
    Object.values(single).some((value) => value?.cut) ||
    attachmentFieldsCut ||
    parsed.subject.length > MAX_SUBJECT_CHARS;
  const recordAttachments = attachments.map(({ content: _content, ...metadata }) => ({
    ...metadata,
    filename: metadata.filename === null ? null : attachmentField(metadata.filename).value,
    content_type: attachmentField(metadata.content_type).value,
    content_id: metadata.content_id === null ? null : attachmentField(metadata.content_id).value,
  }));
  return { lists, single, truncated, attachments: recordAttachments };
}

/** The received-email record of one message for one receiving account (before any redaction). */
function receivedRecord(
  message: InboundMessage,
  parsed: ParsedInbound,
  attachments: StoredAttachment[],
  facts: StoredContent & {
    keepContent: boolean;
    prefix: string;
    spamStatus: ReceivedEmail['spam_status'];
    authentication: Authentication;
    createdAt: string;
  },
): ReceivedEmail {
  const header = (name: string) => parsed.headers.find((field) => field.name.toLowerCase() === name)?.value ?? null;
  const { lists, single, truncated, attachments: recordAttachments } = boundedFields(parsed, attachments);
  return {
    id: message.email_id,
    account_id: message.account_id,
    domain_id: message.domain_id,
    tenant_id: message.tenant_id,
    tenant: message.tenant,
    status: 'received',
    from: single.from.value,
    to: lists.to.values,
    cc: lists.cc.values,
    reply_to: lists.reply_to.values,
    subject: parsed.subject.slice(0, MAX_SUBJECT_CHARS),
    message_id: single.message_id?.value ?? null,
    in_reply_to: single.in_reply_to?.value ?? null,
    references: lists.references.values,
    date: parsed.date,
    mail_from: message.mail_from,
    rcpt_to: message.rcpt_to,
    plus_address: firstPlusPart(message.rcpt_to),
    spam_status: facts.spamStatus,
    authentication: facts.authentication,
    auto_submitted: autoSubmitted(header, message.mail_from),
    stripped_text: parsed.text === null ? null : stripReply(parsed.text).slice(0, STRIPPED_TEXT_MAX),
    attachment_count: parsed.attachment_count,
    attachments: recordAttachments,
    size: message.size,
    parse_error: parsed.parse_error,
    truncated,
    tls: message.tls,
    remote_address: message.remote_address,
    helo: message.helo,
    // Content kept: the account's copy; not kept: the shared key, deleted once recorded (as before).
    raw_key: facts.keepContent ? facts.rawCopyKey : message.raw_key,
    ...(facts.keepContent ? { shared_raw_key: message.raw_key } : {}),
    html_bytes: facts.htmlBytes,
    text_bytes: facts.textBytes,
    ...(facts.contentObject ? { content_object: true } : {}),
    objects_prefix: facts.prefix,
    received_at: message.received_at,
    created_at: facts.createdAt,
  };
}

/** email.received, with an id derived from the email (published again after a crash: delivered once), of the stored record. */
async function publishReceived(
  deps: Pick<ProcessInboundDeps, 'events'>,
  email: ReceivedEmail,
  recorded: ReceivedEmail,
  webhookIds: string[] | undefined,
): Promise<void> {
  await deps.events.publish([
    {
      id: emailEventId(email.received_at, email.id, 'email.received'),
      type: 'email.received',
      account_id: email.account_id,
      tenant: email.tenant,
      created_at: recorded.received_at,
      data: receivedEventData(recorded),
      ...(webhookIds ? { webhook_ids: webhookIds } : {}),
    },
  ]);
}

/** The listener's checks; a message queued before the listener checked has none: unchecked (`temperror`). */
function checksOf(message: InboundMessage): AuthenticationChecks {
  if (message.authentication) return message.authentication;
  logWarn('inbound: queue message without authentication results (queued before the MX listener checked them); recorded as temperror', {
    email_id: message.email_id,
    account_id: message.account_id,
  });
  return uncheckedAuthentication();
}
