/**
 * Validate addresses (docs/deliverability.md, "Address validation"): up to 100 addresses typed or pasted,
 * one per line (or separated by commas), checked as POST /validations/batch checks them: the verdict,
 * score, reasons, suggestion and the domain's mail hosts, each address shown as text. Use case:
 * validateAddresses (the suppressions group's). A check counts against the account's hourly validation
 * allowance, so it is a POST (viewers, who change nothing, cannot run it). Served by a function of its
 * own (dashboard-validations): the disposable domains list (~170 KB) stays out of the other dashboard bundles.
 */
import {
  MAX_VALIDATIONS_PER_BATCH,
  toPublicValidation,
  validateAddressesSchema,
  type PublicValidation,
} from '#shared/domain/address-validation/schemas';
import { parseWith } from '#shared/doors/http/request-validation';
import { validateAddresses } from '#shared/usecases/address-validation/validate-addresses';
import { field, input, postForm, problemFlash, render, textarea, type PageContext } from '../dashboard/pages/forms';
import type { PageRoutes } from '../dashboard/pages/page-routes';
import type { DashboardValidationsServices } from './services';
import { badge, html, table, type Flash } from '../dashboard/pages/layout';

const PATH = '/dashboard/validations';

/** The addresses of the form's text: one per line or comma, blanks dropped. */
export function addressesOf(text: string): string[] {
  return text
    .split(/[\n,;]/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function resultsTable(results: readonly PublicValidation[]) {
  return table(
    'Validation results, in the order given',
    ['Address', 'Verdict', 'Score', 'Reasons', 'Suggestion', 'Mail hosts'],
    results.map(
      (result) =>
        html`<tr><td><code>${result.email}</code></td><td>${badge(result.verdict)}</td><td>${result.score.toFixed(2)}</td><td>${result.reasons.length ? result.reasons.join(', ') : html`<span class="muted">none</span>`}</td><td>${result.suggestion ?? ''}</td><td>${result.checks.domain.result.replace(/_/g, ' ')}${result.checks.domain.hosts.length ? html`<br><span class="muted">${result.checks.domain.hosts.slice(0, 3).join(', ')}</span>` : ''}</td></tr>`,
    ),
  );
}

function page(
  c: PageContext,
  values: { emails?: string; tenant?: string },
  results: readonly PublicValidation[] | null,
  flash: Flash | null,
): Response {
  const body = html`<p><a href="/dashboard/suppressions">← Suppressions</a></p>
${postForm(
  c,
  PATH,
  html`${textarea('Addresses', 'emails', { value: values.emails ?? '', rows: 6, required: true, hint: `Up to ${MAX_VALIDATIONS_PER_BATCH}, one per line. Nothing is sent to them.` })}
<div class="fields">${input('Tenant', 'tenant', { value: values.tenant ?? '', hint: "Optional: its suppression list is checked besides the account's." })}<div class="field"><button type="submit">Validate</button></div></div>`,
  'class="card"',
)}
${results ? resultsTable(results) : html`<p class="hint">Checks each address's syntax, where its domain's mail goes (MX, or none), disposable domains, role addresses, this account's suppressions and common typos. Each address counts against the hourly validation allowance of the account's plan.</p>`}`;
  return render(c, { title: 'Validate addresses', body, ...(flash ? { flash } : {}) });
}

export function addValidationPages(routes: PageRoutes<DashboardValidationsServices>): void {
  const { services } = routes;

  routes.page('/validations', (c) => page(c, {}, null, null));

  routes.action('/validations', async (c, form) => {
    const values = { emails: field(form, 'emails') ?? '', tenant: field(form, 'tenant') ?? '' };
    try {
      const request = parseWith(validateAddressesSchema, {
        emails: addressesOf(values.emails),
        ...(values.tenant ? { tenant: values.tenant } : {}),
      });
      const results = (await validateAddresses(services, c.get('principal'), request)).map(toPublicValidation);
      const counts = ['valid', 'risky', 'invalid']
        .map((verdict) => `${results.filter((r) => r.verdict === verdict).length} ${verdict}`)
        .join(', ');
      return page(c, values, results, {
        kind: 'ok',
        text: `Checked ${results.length} address${results.length === 1 ? '' : 'es'}: ${counts}.`,
      });
    } catch (error) {
      return page(c, values, null, problemFlash(error));
    }
  });
}
