/**
 * Address validation's own module (docs/deliverability.md, "Address validation"): the disposable-domain
 * list (disposable-email-domains-js, ~170 KB of JSON, read on first use), kept out of every other bundle.
 * The domains' mail hosts are ./mail-domains.ts's (the send's `validate: true` uses them too).
 */
import { ListedDisposableDomains } from '../adapters/address-validation/disposable-domains';
import type { DisposableDomains } from '../ports/disposable-domains';

export function buildValidation(): { disposableDomains: DisposableDomains } {
  return { disposableDomains: new ListedDisposableDomains() };
}

export type ValidationServices = ReturnType<typeof buildValidation>;
