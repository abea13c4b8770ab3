/**
 * Domain names as the emulator keeps them: lower case, no trailing dot, ASCII (IDNs are converted
 * to their xn-- form). The root is the empty string. Comparison is therefore plain string equality,
 * which gives DNS's case-insensitivity (RFC 4343) for ASCII letters.
 */
import { domainToASCII } from 'node:url';
import { DnsRecordError } from './errors';

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const MAX_NAME_LENGTH = 253;

/** Lower case and no trailing dot; no validation (for names read off the wire). */
export function canonicalName(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/**
 * Validates a name given to the control API and returns it canonical. Labels are 1 to 63 characters
 * of letters, digits, '-' and '_' (underscore labels such as `_dmarc` are common in mail DNS), not
 * starting or ending with '-'; the whole name is at most 253 characters.
 */
export function parseName(input: unknown, what = 'name'): string {
  if (typeof input !== 'string') throw new DnsRecordError(`${what} must be a string`);
  let name = canonicalName(input.trim());
  if (name === '') throw new DnsRecordError(`${what} must not be empty (the root zone cannot hold records)`);
  if (/[^\x20-\x7e]/.test(name)) {
    const ascii = domainToASCII(name);
    if (ascii === '') throw new DnsRecordError(`${what} '${input}' is not a valid internationalized domain name`);
    name = canonicalName(ascii);
  }
  if (name.length > MAX_NAME_LENGTH) {
    throw new DnsRecordError(`${what} '${input}' is ${name.length} characters long; at most ${MAX_NAME_LENGTH} are allowed`);
  }
  for (const label of name.split('.')) {
    if (label === '') throw new DnsRecordError(`${what} '${input}' has an empty label`);
    if (label.length > 63) {
      throw new DnsRecordError(
        `${what} '${input}' has a label of ${label.length} characters ('${label.slice(0, 20)}...'); at most 63 are allowed`,
      );
    }
    if (!LABEL.test(label)) {
      throw new DnsRecordError(
        `${what} '${input}' has an invalid label '${label}': use letters, digits, '-' and '_', not starting or ending with '-'`,
      );
    }
  }
  return name;
}

/** The parent of a name ('' for a single label). */
export function parentOf(name: string): string {
  const dot = name.indexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1);
}

/** True when `name` is `ancestor` or below it. Every name is under the root (''). */
export function isAtOrBelow(name: string, ancestor: string): boolean {
  return ancestor === '' || name === ancestor || name.endsWith(`.${ancestor}`);
}

/**
 * Second-level labels that, under a two-letter country-code TLD, are public suffixes themselves
 * (example.co.uk, example.com.au, example.co.jp ...). A short stand-in for the Public Suffix List.
 */
const CC_SECOND_LEVEL = new Set([
  'ac',
  'co',
  'com',
  'edu',
  'gob',
  'go',
  'gov',
  'ltd',
  'me',
  'mil',
  'ne',
  'net',
  'nic',
  'or',
  'org',
  'plc',
  'sch',
]);

/**
 * The zone a record name belongs to: its registrable domain, approximated as the last two labels, or
 * the last three when they end in a common ccTLD second level such as `co.uk`. Names of one or two
 * labels are their own zone. So `_dmarc.mail.example.com` belongs to `example.com`.
 */
export function zoneOf(name: string): string {
  const labels = name.split('.');
  if (labels.length <= 2) return name;
  const tld = labels[labels.length - 1] ?? '';
  const second = labels[labels.length - 2] ?? '';
  const keep = tld.length === 2 && CC_SECOND_LEVEL.has(second) ? 3 : 2;
  return labels.slice(-keep).join('.');
}
