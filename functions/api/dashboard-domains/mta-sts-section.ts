/**
 * The domain page's MTA-STS section (docs/deliverability.md, "Hosted MTA-STS policy"): the hosted policy of the
 * domain's receiving subdomain, its status and what to do next, and the records to publish in order; a form to
 * host it or change its mode, and to stop hosting it. Values from DNS are interpolated (escaped), never markup.
 */
import type { PublicHosting } from '#shared/domain/domains/mta-sts/hosting';
import { MTA_STS_MODES } from '#shared/domain/domains/mta-sts/policy';
import { buttonForm, postForm, select, type PageContext } from '../dashboard/pages/forms';
import { badge, html, time, type Html } from '../dashboard/pages/layout';
import { hostedRecordsTable } from './hosted-records';

const MODE_LABELS = {
  testing: 'testing: deliver anyway, report failures',
  enforce: 'enforce: TLS to our MX only',
  none: 'none: withdraw the policy',
} as const;

function modeForm(c: PageContext, domainId: string, current: string | null, label: string): Html {
  return postForm(
    c,
    `/dashboard/domains/${domainId}/mta-sts`,
    html`<div class="fields">${select(
      'Mode',
      'mode',
      MTA_STS_MODES.map((mode) => ({ value: mode, label: MODE_LABELS[mode] })),
      current ?? 'testing',
      { id: 'mta-sts-mode' },
    )}<div class="field"><button type="submit">${label}</button></div></div>`,
  );
}

/** `receives`: the domain is verified and receives mail (a policy can be hosted for it). */
export function mtaStsSection(
  c: PageContext,
  domain: { id: string; inbound_subdomain: string | null },
  hosting: PublicHosting | null,
  receives: boolean,
): Html {
  const heading = html`<h2 id="mta-sts-heading">MTA-STS policy</h2>`;
  if (!hosting) {
    const intro = html`<p class="hint">A hosted MTA-STS policy (RFC 8461) tells senders to deliver to the receiving subdomain only over TLS to the service's MX. The service gets the certificate of <code>mta-sts.${domain.inbound_subdomain ?? 'inbound.<domain>'}</code> and serves the policy; you publish the records it lists.</p>`;
    return html`<section aria-labelledby="mta-sts-heading">${heading}${intro}${receives ? modeForm(c, domain.id, null, 'Host an MTA-STS policy') : html`<p class="hint">Verify the domain and turn receiving on first.</p>`}</section>`;
  }
  return html`<section aria-labelledby="mta-sts-heading">${heading}
<p>Status: ${badge(hosting.status)} · mode <code>${hosting.mode}</code> · max_age ${hosting.max_age} s · policy id <code>${hosting.policy_id}</code> · <code>${hosting.policy_url}</code></p>
${hosting.message ? html`<p class="hint">${hosting.message}</p>` : ''}
${hostedRecordsTable(`Records of the MTA-STS policy of ${hosting.policy_domain}, in the order to publish them`, hosting.records)}
<p class="muted">Records checked ${time(hosting.checked_at)}; next step ${time(hosting.next_check_at)}.</p>
<div class="actions">${modeForm(c, domain.id, hosting.mode, 'Save and check now')} ${buttonForm(c, `/dashboard/domains/${domain.id}/mta-sts/delete`, 'Stop hosting', { className: 'danger' })}</div></section>`;
}
