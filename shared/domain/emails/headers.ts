/**
 * Custom headers on a send: the one rule of every door that takes headers (POST /emails, /emails/batch,
 * the SendGrid, Postmark and Mailgun doors, all through the send request's schema). Headers that would
 * override the envelope, routing, authentication, the MIME structure or our own tracking are refused
 * (documented in docs/api.md, "Refused headers"), and so are two whole families by prefix, in any case:
 * X-SES-* (Amazon SES reads every X-SES- field as a control of the send: configuration set, tags, ARNs,
 * tenant...) and X-Service-* (ours). A header SES allows once given twice under names that differ only in
 * case (`References` and `references`) is refused too. The SMTP relay, which cannot refuse a field of a
 * message it relays, strips the same families (../mime/transport-headers.ts).
 */
import { UNSTORABLE_KEYS } from '../bounds';
import { repeatedSingleHeader } from './ses-content-rules';

export const BLOCKED_HEADERS = [
  'bcc',
  'cc',
  'to',
  'from',
  'sender',
  'subject',
  'date',
  'message-id',
  'received',
  'return-path',
  'delivered-to',
  'dkim-signature',
  'domainkey-signature',
  'arc-seal',
  'arc-message-signature',
  'arc-authentication-results',
  'authentication-results',
  'received-spf',
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
  'mime-version',
  'list-unsubscribe',
  'list-unsubscribe-post',
  'feedback-id',
] as const;

const BLOCKED = new Set<string>(BLOCKED_HEADERS);
/**
 * Whole families refused by prefix (lower case; names compared case-insensitively): Amazon SES's controls
 * and the service's own headers, each with the reason a caller is told.
 */
export const RESERVED_HEADER_PREFIXES: readonly { prefix: string; family: string; reason: string }[] = [
  { prefix: 'x-ses-', family: 'X-SES-*', reason: 'headers are Amazon SES controls and cannot be set' },
  { prefix: 'x-service-', family: 'X-Service-*', reason: 'headers are reserved for the service' },
];

/**
 * Why a header name cannot be given on a send (blocked, or of a reserved family), naming the header (the
 * provider doors report a field as `headers` only); null when it can be given.
 */
export function refusedHeaderReason(name: string): string | null {
  const lower = name.toLowerCase();
  if (BLOCKED.has(lower)) return `${name} is set by the service and cannot be overridden`;
  const family = RESERVED_HEADER_PREFIXES.find(({ prefix }) => lower.startsWith(prefix));
  return family ? `${name}: ${family.family} ${family.reason}` : null;
}
const NAME = /^[!-9;-~]{1,126}$/; // RFC 5322 field-name: printable ASCII except colon; at most 126 (as SES's MessageHeader)
/** Most custom headers on one send: with 998-character values, about 55 KB of the email item's 400 KB. */
export const MAX_CUSTOM_HEADERS = 50;

export interface HeaderProblem {
  header: string;
  reason: string;
}

export function findHeaderProblems(headers: Record<string, string>): HeaderProblem[] {
  const problems: HeaderProblem[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const refused = refusedHeaderReason(name);
    if (!NAME.test(name))
      problems.push({ header: name.slice(0, 126), reason: 'invalid header name (1-126 printable ASCII characters, no colon or spaces)' });
    // Names the email item cannot hold as keys of its header map (the empty one fails NAME).
    else if (UNSTORABLE_KEYS.has(name)) problems.push({ header: name, reason: 'this header name cannot be stored; use an X- name' });
    else if (refused) problems.push({ header: name, reason: refused });
    else if (/[\r\n\0]/.test(value)) problems.push({ header: name, reason: 'header values must not contain CR, LF or NUL' });
    else if (value.length > 998) problems.push({ header: name, reason: 'header value longer than 998 characters' });
  }
  // Names differing only in case are the same field, and SES refuses a second one of the fields it allows once.
  const repeated = repeatedSingleHeader(Object.keys(headers));
  if (repeated)
    problems.push({ header: repeated, reason: `given twice (header names are case-insensitive); Amazon SES allows ${repeated} only once` });
  return problems;
}
