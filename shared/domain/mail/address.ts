/** Email addresses and domain names: parsing and validation shared by every schema. */
import * as z from 'zod';

// Pragmatic address check: a dot-atom-ish local part, a domain with at least one dot and a 2+ letter TLD.
const ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export interface Mailbox {
  email: string;
  name?: string;
}

const LOCAL_PART = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}$/;

/** A bare local part (`billing`): completed with a tenant's default_from_domain by the send core. */
export function isLocalPart(value: string): boolean {
  return LOCAL_PART.test(value) && !value.startsWith('.') && !value.endsWith('.') && !value.includes('..');
}

/** Whether a mailbox still needs its domain (a bare local part, accepted only in `from`). */
export function isBareLocalPart(mailbox: Mailbox): boolean {
  return !mailbox.email.includes('@');
}

/** `Name <local>` or `local`: a sender given as a bare local part (no domain), or null. */
export function parseBareSender(input: string): Mailbox | null {
  const value = input.trim();
  const angle = /^(.*?)\s*<([^<>@]+)>$/.exec(value);
  if (angle) {
    const local = angle[2]!.trim();
    let name = angle[1]!.trim();
    if (name.startsWith('"') && name.endsWith('"') && name.length >= 2) name = name.slice(1, -1).replace(/\\(.)/g, '$1');
    if (!isLocalPart(local) || /[\r\n]/.test(name)) return null;
    return name ? { email: local, name } : { email: local };
  }
  return isLocalPart(value) ? { email: value } : null;
}

export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && ADDRESS.test(value) && !value.includes('..');
}

/** Parses `a@b.c` or `Display Name <a@b.c>` (the name may be quoted). Returns null when invalid. */
export function parseMailbox(input: string): Mailbox | null {
  const value = input.trim();
  const angle = /^(.*?)\s*<([^<>]+)>$/.exec(value);
  if (angle) {
    const email = angle[2]!.trim();
    let name = angle[1]!.trim();
    if (name.startsWith('"') && name.endsWith('"') && name.length >= 2) name = name.slice(1, -1).replace(/\\(.)/g, '$1');
    if (!isEmailAddress(email) || /[\r\n]/.test(name)) return null;
    return name ? { email, name } : { email };
  }
  return isEmailAddress(value) ? { email: value } : null;
}

/** `Name <email>` with the name quoted when it needs to be. */
export function formatMailbox(mailbox: Mailbox): string {
  if (!mailbox.name) return mailbox.email;
  const name = /^[A-Za-z0-9 !#$%&'*+\-/=?^_`{|}~.]+$/.test(mailbox.name) ? mailbox.name : `"${mailbox.name.replace(/(["\\])/g, '\\$1')}"`;
  return `${name} <${mailbox.email}>`;
}

export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const emailAddress = z.string().trim().refine(isEmailAddress, { message: 'must be a valid email address' });

export const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => DOMAIN.test(value), { message: 'must be a valid domain name' });

/** `local@domain` split at the last `@`, the domain lower-cased; null when it is not an address. */
export function splitAddress(address: string): { local: string; domain: string } | null {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return null;
  return {
    local: address.slice(0, at),
    domain: address
      .slice(at + 1)
      .toLowerCase()
      .replace(/\.$/, ''),
  };
}
