/**
 * A domain and its mail provider's verification (SES verifies an identity later than our DNS check, once
 * it has seen the DKIM record): the domain becomes `verified` only when the provider can send from it;
 * until then it keeps the status it had (a new domain stays `pending`, with every record verified and
 * `provider.status: pending` saying why). docs/domains.md, "Registration with the mail provider (SES)".
 */
import type { DomainStatus, ProviderVerification } from './domain';

/**
 * Whether the provider can send from a registered domain yet. SES verifies an identity later than it is
 * created (when it has seen the DKIM record in DNS): `pending` until then, `verified` once
 * GetEmailIdentity says VerifiedForSendingStatus, `failed` when SES gave up (registering again restarts
 * it). `detail` says what the provider reported, for the domain's message.
 */
export interface ProviderDomainState {
  status: 'pending' | 'verified' | 'failed';
  detail: string;
}

export function providerVerification(state: ProviderDomainState, at: string): ProviderVerification {
  // The provider's words (state.detail) say what it saw; ours say what happens next, when anything does.
  const next =
    state.status === 'verified'
      ? ''
      : state.status === 'failed'
        ? " The domain is not verified: call verify again to restart the provider's verification (the DNS records need no change)."
        : ' The domain becomes verified by itself once the provider confirms it (usually within minutes): the service asks again every few minutes, and at once on every verify and GET of the domain.';
  return { status: state.status, message: `${state.detail}${next}`, checked_at: at };
}

/** The domain's status once its DNS checked out and the provider answered: verified only when the provider says so. */
export function statusWithProvider(previous: DomainStatus, provider: ProviderVerification): DomainStatus {
  return provider.status === 'verified' ? 'verified' : previous;
}
