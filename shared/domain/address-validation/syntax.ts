/**
 * The syntax check of address validation (RFC 5321 section 4.1.2, extended by RFC 6531 for SMTPUTF8): a
 * dot-atom local part of at most 64 octets whose atoms are RFC 5322 atext or, per RFC 6531, any non-ASCII
 * UTF-8 character; a domain that is a host name, IDN labels converted to their A-labels (`xn--`, the form
 * DNS is asked in); at most 254 octets in all. Quoted local parts ("a b"@x) and address literals
 * (a@[192.0.2.1]) are valid SMTP but refused here, as the send path refuses them (its schema:
 * ../mail/address.ts, whose check an ASCII address must also pass).
 */
import { domainToASCII, domainToUnicode } from 'node:url';
import { isEmailAddress } from '../mail/address';

export const SYNTAX_PROBLEMS = [
  'empty',
  'no_at_sign',
  'quoted_local_part',
  'invalid_local_part',
  'local_part_too_long',
  'address_literal',
  'invalid_domain',
  'too_long',
] as const;
export type SyntaxProblem = (typeof SYNTAX_PROBLEMS)[number];

export type ParsedAddress =
  | {
      valid: true;
      /** The local part as given. */
      local: string;
      /** The domain as DNS is asked: lower case, IDN labels as A-labels (`xn--`). */
      domain: string;
      /** The domain in Unicode (U-labels), for display and typo suggestions. */
      unicodeDomain: string;
      /** The local part is not ASCII: the address can only be delivered over SMTPUTF8 (RFC 6531). */
      smtputf8: boolean;
    }
  | { valid: false; problem: SyntaxProblem };

// RFC 5322 atext, plus (RFC 6531 section 3.3) any non-ASCII character except the C1 controls.
const ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\-\u00A0-\u{10FFFF}]+$/u;
// A host name of letters, digits and hyphens (A-labels included), with at least two labels and a TLD of
// letters or an IDN TLD's A-label (`xn--4rr70v`): ../mail/address.ts's domain rule, plus IDN TLDs.
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const octets = (value: string): number => Buffer.byteLength(value, 'utf8');

function invalid(problem: SyntaxProblem): ParsedAddress {
  return { valid: false, problem };
}

export function parseAddress(input: string): ParsedAddress {
  const value = input.trim();
  if (value === '') return invalid('empty');
  const at = value.lastIndexOf('@');
  if (at < 0) return invalid('no_at_sign');
  const local = value.slice(0, at);
  const rawDomain = value.slice(at + 1);
  if (local.startsWith('"')) return invalid('quoted_local_part');
  if (local === '' || !local.split('.').every((atom) => ATOM.test(atom))) return invalid('invalid_local_part');
  if (octets(local) > 64) return invalid('local_part_too_long');
  if (rawDomain.startsWith('[')) return invalid('address_literal');
  const domain = domainToASCII(rawDomain.replace(/\.$/, '')).toLowerCase();
  if (domain === '' || !HOST_NAME.test(domain)) return invalid('invalid_domain');
  if (octets(local) + 1 + domain.length > 254) return invalid('too_long');
  const smtputf8 = /[^\x00-\x7F]/.test(local);
  if (!smtputf8 && !isEmailAddress(`${local}@${domain}`)) return invalid('invalid_local_part');
  return { valid: true, local, domain, unicodeDomain: domainToUnicode(domain), smtputf8 };
}
