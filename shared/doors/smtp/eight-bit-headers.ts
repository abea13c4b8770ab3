/**
 * Header fields with raw 8-bit bytes (UTF-8 written as is, as SMTPUTF8 clients may): SES takes a raw
 * message's header in 7-bit ASCII, non-ASCII text as RFC 2047 encoded-words
 * (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_RawMessage.html;
 * https://docs.aws.amazon.com/ses/latest/dg/send-email-formatted.html), and the relay delivers a message
 * as written, so it refuses such a field at DATA (550 5.6.0 naming it) rather than rewrite it: docs/smtp.md.
 */
import type { RawHeaderField } from '../../domain/mime/header-block';

const EIGHT_BIT = /[^\x00-\x7f]/;

/** The first field whose text (name or value) has a byte above 0x7F; undefined when the header is 7-bit. */
export function firstEightBitField(fields: readonly RawHeaderField[]): RawHeaderField | undefined {
  return fields.find((field) => EIGHT_BIT.test(field.text));
}
