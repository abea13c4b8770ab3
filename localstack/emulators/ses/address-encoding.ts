/**
 * SES takes address parameters in 7-bit ASCII only: "The email address string must be 7-bit ASCII. If you
 * want to send to or from email addresses that contain Unicode characters in the domain part of an
 * address, you must encode the domain using Punycode ... If you want to use Unicode characters in the
 * 'friendly from' name, you must encode the 'friendly from' name using MIME encoded-word syntax"
 * (https://docs.aws.amazon.com/ses/latest/dg/send-email-formatted.html; the same words in the API
 * reference of Destination and FromEmailAddress,
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_Destination.html). An RFC 2047 encoded-word
 * is ASCII itself, so any non-ASCII character in FromEmailAddress, a Destination address or a
 * ReplyToAddresses entry is refused. Whether SES refuses such a parameter or strips the characters is not
 * documented (both are reported); the emulator refuses (BadRequestException), and only a send on AWS
 * settles it (docs/local-cloud/ses.md, "Address encoding").
 */
import { badRequest } from './errors';

const NOT_ASCII = /[^\x00-\x7f]/;

export interface AddressParameters {
  fromEmailAddress?: string;
  to: readonly string[];
  cc: readonly string[];
  bcc: readonly string[];
  replyTo: readonly string[];
}

export function checkAsciiAddresses(params: AddressParameters): void {
  const fields: [string, readonly string[]][] = [
    ['FromEmailAddress', params.fromEmailAddress === undefined ? [] : [params.fromEmailAddress]],
    ['Destination.ToAddresses', params.to],
    ['Destination.CcAddresses', params.cc],
    ['Destination.BccAddresses', params.bcc],
    ['ReplyToAddresses', params.replyTo],
  ];
  for (const [field, values] of fields) {
    const bad = values.find((value) => NOT_ASCII.test(value));
    if (bad !== undefined) {
      throw badRequest(
        `${field} '${bad}' contains non-ASCII characters: addresses must be 7-bit ASCII (a Unicode display name as an RFC 2047 encoded-word, a Unicode domain in Punycode).`,
      );
    }
  }
}
