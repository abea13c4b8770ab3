/**
 * Custom headers on a send. Headers that would override the envelope, routing, authentication, the MIME
 * structure or our own tracking are refused (documented in docs/sending.md), and so is a header SES allows
 * once given twice under names that differ only in case (`References` and `references`).
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
  'x-ses-configuration-set',
  'x-ses-message-tags',
  'x-ses-source-arn',
  'x-ses-from-arn',
  'x-ses-return-path-arn',
] as const;

const BLOCKED = new Set<string>(BLOCKED_HEADERS);
/** Our own headers (X-Service-*) are set by the service only. */
const RESERVED_PREFIX = 'x-service-';
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
    const lower = name.toLowerCase();
    if (!NAME.test(name)) problems.push({ header: name.slice(0, 126), reason: 'invalid header name (1-126 printable ASCII characters, no colon or spaces)' });
    // Names the email item cannot hold as keys of its header map (the empty one fails NAME).
    else if (UNSTORABLE_KEYS.has(name)) problems.push({ header: name, reason: 'this header name cannot be stored; use an X- name' });
    else if (BLOCKED.has(lower)) problems.push({ header: name, reason: 'this header is set by the service and cannot be overridden' });
    else if (lower.startsWith(RESERVED_PREFIX)) problems.push({ header: name, reason: 'X-Service-* headers are reserved' });
    else if (/[\r\n\0]/.test(value)) problems.push({ header: name, reason: 'header values must not contain CR, LF or NUL' });
    else if (value.length > 998) problems.push({ header: name, reason: 'header value longer than 998 characters' });
  }
  // Names differing only in case are the same field, and SES refuses a second one of the fields it allows once.
  const repeated = repeatedSingleHeader(Object.keys(headers));
  if (repeated) problems.push({ header: repeated, reason: `given twice (header names are case-insensitive); Amazon SES allows ${repeated} only once` });
  return problems;
}
