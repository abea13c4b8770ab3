/**
 * Header fields removed from a relayed message before it is stored and sent. The message is delivered
 * as the client wrote it, except for fields that would override the provider's transport, forge
 * authentication results, or speak for the service. The list is the API's refused headers
 * (shared/domain/emails/headers.ts BLOCKED_HEADERS and RESERVED_HEADER_PREFIXES), minus the fields that ARE the message (its
 * originator, recipients, subject, date, id and MIME structure) and those the client may rightly set
 * (trace and unsubscribe fields, below), plus whole families by prefix:
 *
 * - removed: Bcc (recipients travel in the envelope only), Sender, Return-Path, Delivered-To,
 *   DKIM-Signature, DomainKey-Signature (the service signs), ARC-*, Authentication-Results, Received-SPF
 *   (forged verdicts), Feedback-ID (the service's), X-SES-* (provider controls: configuration set, tags,
 *   ARNs), X-Service-* (the relay's own features, read before: shared/doors/smtp/service-headers.ts);
 * - kept: From, To, Cc, Reply-To, Subject, Date, Message-ID, MIME-Version, Content-*, Received (RFC 5321
 *   4.4: a relay never removes trace fields), List-Unsubscribe and List-Unsubscribe-Post (the sender's own
 *   unsubscribe, what mailbox providers ask bulk senders for), and every other field.
 */
import { BLOCKED_HEADERS, RESERVED_HEADER_PREFIXES } from '../emails/headers';
import { joinHeaderBlock, splitHeaderBlock } from './header-block';

/** Blocked on the API, but part of the message or the client's to set. */
const KEPT = new Set([
  'from',
  'to',
  'cc',
  'subject',
  'date',
  'message-id',
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
  'mime-version',
  'received',
  'list-unsubscribe',
  'list-unsubscribe-post',
]);

export const STRIPPED_HEADERS: readonly string[] = BLOCKED_HEADERS.filter((name) => !KEPT.has(name));
/** ARC-* and the API's refused families (X-SES-*, X-Service-*). */
export const STRIPPED_PREFIXES: readonly string[] = ['arc-', ...RESERVED_HEADER_PREFIXES.map(({ prefix }) => prefix)];

const STRIPPED = new Set(STRIPPED_HEADERS);

export function isStrippedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return STRIPPED.has(lower) || STRIPPED_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/** The message without the stripped fields (top-level header only; the body and every part untouched). */
export function stripTransportHeaders(raw: Buffer): { raw: Buffer; stripped: string[] } {
  const { fields, rest } = splitHeaderBlock(raw);
  const kept = fields.filter((field) => !isStrippedHeader(field.name));
  if (kept.length === fields.length) return { raw, stripped: [] };
  const stripped = fields.filter((field) => isStrippedHeader(field.name)).map((field) => field.name);
  return { raw: joinHeaderBlock(kept, rest), stripped };
}
