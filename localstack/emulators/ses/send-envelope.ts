/**
 * SendEmail's envelope: the sender (FromEmailAddress, else the From header) and the recipients
 * (Destination when given, else the To/Cc/Bcc headers), each a valid address, the recipients without
 * repeats (case-insensitive), at least one and at most 50.
 */
import { badRequest } from './errors';
import { MAX_RECIPIENTS } from './message-limits';
import { formatMailbox, isValidAddress, parseAddressList, type DecodedHeaders } from './mime';

export interface EnvelopeSender {
  /** As given or as the From header has it (with a display name). */
  source: string;
  sourceAddress: string;
}

export function envelopeSender(fromEmailAddress: string | undefined, decoded: DecodedHeaders): EnvelopeSender {
  let source: string;
  let sourceAddress: string;
  if (fromEmailAddress) {
    source = fromEmailAddress;
    sourceAddress = parseAddressList(fromEmailAddress)[0] ?? '';
  } else {
    const first = decoded.from[0];
    if (!first) throw badRequest('FromEmailAddress is required when the message has no From header.');
    source = formatMailbox(first);
    sourceAddress = first.address;
  }
  if (!isValidAddress(sourceAddress)) throw badRequest(`Illegal address: ${source}`);
  return { source, sourceAddress };
}

/** `given` is Destination's To, Cc and Bcc addresses. */
export function envelopeRecipients(given: readonly string[], decoded: DecodedHeaders): string[] {
  const candidates =
    given.length > 0
      ? given.flatMap((a) => {
          const list = parseAddressList(a);
          if (list.length === 0) throw badRequest(`Illegal address: ${a}`);
          return list;
        })
      : [...decoded.to, ...decoded.cc, ...decoded.bcc].map((m) => m.address);
  const recipients: string[] = [];
  const seen = new Set<string>();
  for (const r of candidates) {
    if (!isValidAddress(r)) throw badRequest(`Illegal address: ${r}`);
    const key = r.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    recipients.push(r);
  }
  if (recipients.length === 0) throw badRequest('The message has no recipients: set Destination or To/Cc/Bcc headers.');
  if (recipients.length > MAX_RECIPIENTS) throw badRequest(`Recipient count exceeds ${MAX_RECIPIENTS}.`);
  return recipients;
}
