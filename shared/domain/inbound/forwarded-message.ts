/**
 * A received message as a `forward` route sends it on (docs/inbound.md, "Forwarding"). Pure.
 *
 * Forwarding a stranger's message as it is breaks its SPF (our servers are not the sender's) and, once any
 * byte changes, its DKIM: the original sender's DMARC then fails at the receiving side. So the forward is sent
 * FROM the receiving domain's own sending domain, as a mailing list does (RFC 7960 section 4.1.3.1, the "From
 * rewrite"): DKIM-signed by that domain and sent from its MAIL FROM, it passes SPF and DMARC alignment there.
 *
 *   From:      "<original name or address> via <recipient>" <local part of the recipient@sending domain>
 *   Reply-To:  the original Reply-To, or else the original From (the field as received): a reply reaches the
 *              person who wrote, not the forwarding address
 *   X-Forwarded-For: <recipient> <targets>, X-Forwarded-To: <targets>  (as Gmail's forwarding marks it)
 *   removed:   the fields a relayed message loses (../mime/transport-headers.ts: Sender, Return-Path,
 *              DKIM-Signature, ARC-*, Authentication-Results, Bcc, ...), the original From
 *   kept:      every other field (To, Cc, Subject, Date, Message-ID, References, Received, MIME) and the body,
 *              byte for byte
 *
 * Loops: a message already forwarded by this recipient (its X-Forwarded-For names it) or forwarded
 * MAX_FORWARD_HOPS times is not forwarded again.
 */
import { encodeWords, foldLines } from 'nodemailer/lib/mime-funcs';
import { formatMailbox, splitAddress, type Mailbox } from '../mail/address';
import { joinHeaderBlock, splitHeaderBlock, type RawHeaderField } from '../mime/header-block';
import { isStrippedHeader } from '../mime/transport-headers';

/** Forwards a message may have been through (X-Forwarded-For fields) before one more is refused. */
export const MAX_FORWARD_HOPS = 5;
/** The forwarded From's display name is cut to this many characters. */
const MAX_NAME_CHARS = 120;

export interface ForwardInput {
  /** The message as the MX listener received it. */
  raw: Buffer;
  /** The receiving address the route held for (RCPT TO), lower-cased: `billing@inbound.example.com`. */
  recipient: string;
  /** The receiving domain's sending domain (the domain's name): `example.com`. */
  sendingDomain: string;
  /** Where it goes. */
  to: readonly string[];
  /** The original From's first mailbox (as mailparser read it), for the display name; null when it has none. */
  originalFrom: Mailbox | null;
}

export type ForwardedMessage = { kind: 'forward'; raw: Buffer; from: Mailbox } | { kind: 'loop'; reason: string };

/** A field to add, folded, its line breaks the message's own (the send core makes them CRLF). */
const field = (name: string, value: string, eol: string): RawHeaderField => ({
  name: name.toLowerCase(),
  text: `${foldLines(`${name}: ${value}`, 76).replace(/\r?\n/g, eol)}${eol}`,
});

/** `Name <address>`, the name quoted when it is ASCII and RFC 2047 encoded (base64) when it is not. */
export function encodedMailbox(mailbox: Mailbox): string {
  if (!mailbox.name || /^[\x20-\x7e]*$/.test(mailbox.name)) return formatMailbox(mailbox);
  return `${encodeWords(mailbox.name, 'B', 52, true)} <${mailbox.email}>`;
}

/** The From of the forward: the recipient's local part at the sending domain, named after the original sender. */
export function forwardedFrom(recipient: string, sendingDomain: string, originalFrom: Mailbox | null): Mailbox {
  const local = splitAddress(recipient)?.local ?? 'forward';
  const who = originalFrom?.name?.trim() || originalFrom?.email || 'unknown sender';
  const name = `${who} via ${recipient}`.replace(/[\r\n\t]+/g, ' ');
  return { email: `${local}@${sendingDomain}`, name: name.length > MAX_NAME_CHARS ? `${name.slice(0, MAX_NAME_CHARS - 1)}…` : name };
}

/** Whether the message already went through this recipient's forward, or through too many. */
function loopOf(fields: readonly RawHeaderField[], recipient: string): string | null {
  const marks = fields
    .filter((f) => f.name === 'x-forwarded-for')
    .map((f) =>
      f.text
        .slice(f.text.indexOf(':') + 1)
        .trim()
        .toLowerCase(),
    );
  if (marks.some((mark) => mark.split(/\s+/)[0] === recipient)) return `already forwarded by ${recipient}`;
  if (marks.length >= MAX_FORWARD_HOPS) return `forwarded ${marks.length} times already`;
  return null;
}

export function forwardedMessage({ raw, recipient, sendingDomain, to, originalFrom }: ForwardInput): ForwardedMessage {
  const { fields, rest, eol } = splitHeaderBlock(raw);
  const loop = loopOf(fields, recipient);
  if (loop) return { kind: 'loop', reason: loop };
  const from = forwardedFrom(recipient, sendingDomain, originalFrom);
  const originalFromField = fields.find((f) => f.name === 'from');
  const hasReplyTo = fields.some((f) => f.name === 'reply-to');
  // No Reply-To of its own: the original From, as received (its encoding and every mailbox kept).
  const replyTo =
    !hasReplyTo && originalFromField
      ? [{ name: 'reply-to', text: `Reply-To:${originalFromField.text.slice(originalFromField.text.indexOf(':') + 1)}` }]
      : [];
  const kept = fields.filter((f) => f.name !== 'from' && !isStrippedHeader(f.name));
  const added = [
    field('From', encodedMailbox(from), eol),
    ...replyTo,
    field('X-Forwarded-For', `${recipient} ${to.join(' ')}`, eol),
    field('X-Forwarded-To', to.join(', '), eol),
  ];
  return { kind: 'forward', raw: joinHeaderBlock([...added, ...kept], rest), from };
}
