/**
 * An address field (From, To, Cc, Reply-To) as the inbound record keeps it: one `Name <addr>` (or
 * `addr`, or a bare name when there is no address) per mailbox, group members in the list in place of
 * their group (an empty group gives nothing). Parsed with nodemailer's addressparser (~11 KB bundled,
 * imported alone) and decoded as mailparser decodes it:
 *
 * - display names: RFC 2047 words decoded; a name that is only base64 words and decodes to
 *   `Name <addr>` text is parsed again (its mailboxes go to the end of the list, as in mailparser);
 * - an RFC 2047 word in an address is decoded only when that gives a plain `local@domain`, else the
 *   address is dropped (RFC 2047 forbids words there: a decoded one could fabricate an address);
 * - a punycode domain (`@xn--...`) is shown in Unicode.
 */
import addressparser from 'nodemailer/lib/addressparser';
import { toUnicode } from 'nodemailer/lib/punycode';
import { decodeWords } from './encoded-words';

interface Mailbox {
  name: string;
  address?: string;
  group?: Mailbox[];
}

const ONLY_BASE64_WORDS = /^(=\?([^?]+)\?[Bb]\?[^?]*\?=)(\s*=\?([^?]+)\?[Bb]\?[^?]*\?=)*$/;

/** The mailboxes of an address field's (unfolded) value, formatted as above. */
export function formatAddressList(value: string): string[] {
  const flat = (list: Mailbox[]): Mailbox[] => list.flatMap((entry) => (entry.group ? flat(entry.group) : [entry]));
  return flat(decodeMailboxes(addressparser(value) as Mailbox[])).flatMap((entry) => {
    if (!entry.address) return entry.name ? [entry.name] : [];
    return [entry.name ? `${entry.name} <${entry.address}>` : entry.address];
  });
}

function decodeMailboxes(list: Mailbox[]): Mailbox[] {
  const decoded: Mailbox[] = [];
  const reparsed: Mailbox[] = [];
  for (const entry of list) {
    const name = (entry.name || '').trim();
    if (!entry.address && !entry.group && ONLY_BASE64_WORDS.test(name)) {
      const text = decodeWords(name);
      if (hasBracketedAddress(text)) {
        // Its mailboxes are not parsed again a second time (mailparser's rule).
        reparsed.push(...(addressparser(text) as Mailbox[]).map(decodeMailbox));
        continue;
      }
      decoded.push({ name: text });
      continue;
    }
    decoded.push(decodeMailbox(entry));
  }
  return [...decoded, ...reparsed];
}

function decodeMailbox(entry: Mailbox): Mailbox {
  const name = (entry.name || '').trim();
  return { name: name ? decodeWords(name) : '', address: decodeAddress(entry.address), group: entry.group ? decodeMailboxes(entry.group) : undefined };
}

function decodeAddress(address: string | undefined): string | undefined {
  if (!address) return address;
  let result = address;
  if (/=\?[^?]+\?[BbQq]\?[^?]*\?=/.test(result)) {
    const decoded = decodeWords(result);
    result = /^[^\s@]+@[^\s@]+$/.test(decoded) && !decoded.includes('=?') ? decoded : '';
  }
  if (/@xn--/.test(result)) {
    const at = result.lastIndexOf('@');
    try {
      result = result.slice(0, at + 1) + toUnicode(result.slice(at + 1));
    } catch {
      // not valid punycode: kept as written
    }
  }
  return result;
}

/** Whether the text holds `<...@...>` (linear: a regex would backtrack on a long run of `@`). */
function hasBracketedAddress(text: string): boolean {
  let start = -1;
  let at = -1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '<') {
      start = i;
      at = -1;
    } else if (char === '>') {
      if (start >= 0 && at >= 0 && at < i - 1) return true;
      start = -1;
      at = -1;
    } else if (char === '@' && start >= 0 && at < 0 && i > start + 1) {
      at = i;
    }
  }
  return false;
}
