/**
 * Whether a domain is a disposable (throwaway) mail service (address validation). A maintained list
 * behind it: shared/adapters/address-validation/disposable-domains.ts.
 */
export interface DisposableDomains {
  /** `domain` in lower case, IDN labels as A-labels; its parent domains count too (a.mailinator.com). */
  isDisposable(domain: string): boolean;
}
