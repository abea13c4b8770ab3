/**
 * The banner a paused account's pages carry (docs/deliverability.md, "Reputation guard"): that its sends are
 * refused, why, who paused it and, for the reputation brake's pause, the figures it paused on. Every value is
 * escaped (the reason is the service's or an operator's text, still data).
 */
import { accountPauseView, type Account } from '#shared/domain/accounts/account';
import { html, percent, time, type Html } from './layout';

const METRIC_WORD = { bounce: 'bounce', complaint: 'complaint' } as const;

export function accountBanner(account: Account): Html | '' {
  const pause = accountPauseView(account);
  if (pause.status !== 'paused') return '';
  const figures = pause.pause_figures;
  const who = pause.pause_source === 'automated' ? 'the reputation brake' : 'the operator';
  return html`<section class="banner error" role="alert" aria-labelledby="account-paused"><h2 id="account-paused">This account is paused</h2>
<p>Every send is refused (403 <code>account_paused</code>) until the operator resumes it. Paused by ${who} ${time(pause.paused_at)}.</p>
${pause.paused_reason ? html`<p>${pause.paused_reason}</p>` : ''}
${
  figures
    ? html`<dl class="figures"><dt>This account's ${METRIC_WORD[figures.metric]} rate (${figures.window_days} days)</dt><dd>${percent(figures.metric === 'bounce' ? figures.account.bounce_rate : figures.account.complaint_rate)} of ${figures.account.sent} sent (${figures.account.bounced} bounced, ${figures.account.complained} complained)</dd>
<dt>The deployment's ${METRIC_WORD[figures.metric]} rate</dt><dd>${percent(figures.metric === 'bounce' ? figures.deployment.bounce_rate : figures.deployment.complaint_rate)} of ${figures.deployment.sent} sent</dd>
<dt>Threshold crossed</dt><dd>${percent(figures.threshold)} (${figures.rule === 'review_rate' ? "AWS's review rate" : "the deployment's brake"})</dd></dl>`
    : ''
}</section>`;
}
