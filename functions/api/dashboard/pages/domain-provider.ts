/**
 * Why a domain whose DNS records all check out can still be `pending`: its mail provider's (SES's) own
 * verification, the domain's `provider` field (docs/domains.md, "Registration with the mail provider
 * (SES)"; shared/domain/domains/provider-verification.ts). SES counts a new identity verified only once it
 * has seen the DKIM record, so the domain page shows SES's state, its message and when it was asked, and
 * the domain list marks a domain SES is still verifying or gave up on. Nothing is shown once SES can send
 * (or before the domain was registered there: its DNS records say what is missing).
 *
 * The message is the provider's words plus ours: shown as text (the templates escape it), never as markup.
 */
import type { DomainStatus, ProviderVerification } from '#shared/domain/domains/domain';
import { badge, html, time, type Html } from './layout';
import { toneOf } from './status-tones';

/** A state worth a word: SES still verifying (`pending`) or given up (`failed`); null otherwise. */
function waitingOn(provider: ProviderVerification | null): ProviderVerification | null {
  return provider && provider.status !== 'verified' ? provider : null;
}

/** The domain list's marker beside the status: "SES pending" / "SES failed", or nothing. */
export function providerMarker(provider: ProviderVerification | null): Html {
  const waiting = waitingOn(provider);
  return waiting ? html` <span class="status ${toneOf(waiting.status)}">SES ${waiting.status}</span>` : html``;
}

/**
 * The domain page's section on SES's verification, or nothing. `verifyAgain` is the Verify button: for
 * `failed` it sits here, since verifying again restarts SES's verification (the DNS records need no change).
 * A domain verified before keeps its status while SES re-verifies it (a new key), so only an unverified
 * domain's sends are said to be refused.
 */
export function providerNotice(domain: { status: DomainStatus; provider: ProviderVerification | null }, verifyAgain: Html): Html {
  const waiting = waitingOn(domain.provider);
  if (!waiting) return html``;
  const refused = domain.status === 'verified' ? '' : ' Sends from this domain are refused until SES confirms it.';
  const next =
    waiting.status === 'failed'
      ? html`<div class="actions">${verifyAgain} <span class="hint">Verifying again restarts SES's verification; the DNS records need no change.${refused}</span></div>`
      : html`<p class="hint">SES looks at DNS by itself (usually within minutes, at most 72 hours); the service asks it again every few minutes and each time this page is opened.${refused}</p>`;
  return html`<section class="notice ${toneOf(waiting.status)}" aria-labelledby="provider-heading"><h2 id="provider-heading">Mail provider (SES)</h2>
<dl class="facts"><dt>Status</dt><dd>${badge(waiting.status)}</dd><dt>Checked</dt><dd>${time(waiting.checked_at)}</dd><dt>Message</dt><dd class="provider-message">${waiting.message}</dd></dl>
${next}</section>`;
}
