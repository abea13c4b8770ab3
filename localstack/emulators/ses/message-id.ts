/**
 * SES replaces a message's Message-ID and Date with its own (https://docs.aws.amazon.com/ses/latest/dg/header-fields.html:
 * "If you provide a Message-ID header, Amazon SES overrides the header with its own value"; "If you
 * specify a Date header, Amazon SES overrides it with a timestamp that corresponds to the date and time
 * in the UTC time zone when Amazon SES accepted the message"). Its Message-ID is the SendEmail MessageId
 * at `email.amazonses.com` in us-east-1 and at `<region>.amazonses.com` elsewhere
 * (https://github.com/drewblas/aws-ses/pull/68; https://github.com/Mnexa-AI/e2a/pull/498).
 *
 * The events keep the ORIGINAL message's fields: "Any message ID within the commonHeaders field is from
 * the original message that you passed to Amazon SES"
 * (https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-contents.html), so only the
 * stored (delivered) bytes change here.
 */
import { headerSectionEnd } from './mime';

/** The Message-ID field value recipients see for a SendEmail MessageId, e.g. `<0100...-000000@email.amazonses.com>`. */
export function sesMessageIdHeader(messageId: string, region: string): string {
  return `<${messageId}@${region === 'us-east-1' ? 'email' : region}.amazonses.com>`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => String(n).padStart(2, '0');

/** An RFC 5322 date-time in UTC, e.g. `Tue, 24 Nov 2026 12:00:00 +0000`. */
export function rfc5322Date(at: Date): string {
  return `${DAYS[at.getUTCDay()]}, ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()} ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())} +0000`;
}

/**
 * The message with every top-level Message-ID and Date field (continuation lines included) removed and
 * SES's own put first. The body and the other fields are byte for byte as given.
 */
export function replaceMessageIdAndDate(raw: Buffer, messageId: string, region: string, acceptedAt: Date): Buffer {
  const end = headerSectionEnd(raw);
  const header = raw.subarray(0, end).toString('latin1');
  const eol = header.includes('\r\n') || raw.subarray(end, end + 2).toString('latin1') === '\r\n' ? '\r\n' : '\n';
  const kept: string[] = [];
  let dropping = false;
  for (const line of header.split(/\r?\n/)) {
    const continuation = line.startsWith(' ') || line.startsWith('\t');
    if (!continuation) dropping = /^(message-id|date)\s*:/i.test(line);
    if (!dropping) kept.push(line);
  }
  const fields = [
    `Date: ${rfc5322Date(acceptedAt)}`,
    `Message-ID: ${sesMessageIdHeader(messageId, region)}`,
    ...kept.filter((line) => line !== ''),
  ];
  return Buffer.concat([Buffer.from(fields.join(eol), 'latin1'), end === raw.length ? Buffer.from(eol) : raw.subarray(end)]);
}
