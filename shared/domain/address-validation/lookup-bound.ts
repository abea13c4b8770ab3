/**
 * How many recipient domains one request may have looked up by `validate: true` (docs/deliverability.md,
 * "Validating at send time"): at most MAX_LOOKUP_DOMAINS distinct domains, counted over a batch's items
 * that ask for it, checked before anything is sent or looked up. A single send has at most 50 recipients
 * (MAX_RECIPIENTS), so only a batch can exceed it; without the bound one batch of 100 items could send
 * 5,000 domains' lookups at other people's name servers.
 */
import { domainOf } from '../mail/address';
import { ValidationError } from '../errors';

export const MAX_LOOKUP_DOMAINS = 50;

/** The distinct domains of these addresses (lower case). */
export function lookupDomains(addresses: readonly string[]): string[] {
  return [...new Set(addresses.map(domainOf))];
}

/** 400 validation_error when `domains` are more than one request may look up. */
export function checkLookupBound(domains: readonly string[]): void {
  if (domains.length <= MAX_LOOKUP_DOMAINS) return;
  throw new ValidationError(
    `Emails sent with validate: true in one request may name at most ${MAX_LOOKUP_DOMAINS} distinct recipient domains; this request names ${domains.length}. Nothing was sent.`,
    {
      details: {
        reason: 'too_many_lookup_domains',
        limit: MAX_LOOKUP_DOMAINS,
        domains: domains.length,
        fields: [
          { field: 'emails', message: `at most ${MAX_LOOKUP_DOMAINS} distinct recipient domains among the emails with validate: true` },
        ],
      },
      hint: 'Split the batch into requests of fewer domains, or send some emails without validate (POST /validations/batch checks addresses ahead of a send).',
    },
  );
}
