/** Recipient addresses of inbound mail: the receiving domain, the plus part. Pure. */
import { INBOUND_SUBDOMAIN_LABEL } from '../domains/records';

import { splitAddress } from '../mail/address';

/** `local@domain` split at the last `@` (../mail/address.ts), as inbound mail's addresses are read. */
export { splitAddress };

/**
 * The domain a receiving subdomain belongs to: `inbound.example.com` -> `example.com` (the receive-only
 * subdomain POST /domains makes with inbound_enabled). null for any other name.
 */
export function parentOfReceivingDomain(domain: string): string | null {
  const prefix = `${INBOUND_SUBDOMAIN_LABEL}.`;
  if (!domain.startsWith(prefix)) return null;
  const parent = domain.slice(prefix.length);
  return parent.includes('.') ? parent : null;
}

/** The plus part of a local part (`support+1234` -> `1234`); null without one or when it is empty. */
export function plusPart(address: string): string | null {
  const local = splitAddress(address)?.local ?? '';
  const plus = local.indexOf('+');
  return plus >= 0 && plus < local.length - 1 ? local.slice(plus + 1) : null;
}

/** The first recipient's plus part that exists (Postmark's MailboxHash). */
export function firstPlusPart(addresses: string[]): string | null {
  for (const address of addresses) {
    const part = plusPart(address);
    if (part !== null) return part;
  }
  return null;
}
