/**
 * Suppressions: one list (the account's, or a tenant's), newest first, or an exact lookup of one
 * address (with its category opt-outs); add an address (reason manual) and remove one. Use cases:
 * listSuppressions, addSuppressions, removeSuppression (the suppressions group's).
 */
import type { CategoryOptOut, Suppression } from '#shared/domain/suppressions/model';
import { addSuppressionsSchema, removeSuppressionSchema, suppressionFiltersSchema } from '#shared/domain/suppressions/schemas';
import { parseWith } from '#shared/doors/http/request-validation';
import { addSuppressions, listSuppressions, removeSuppression } from '#shared/usecases/suppressions/suppressions';
import {
  buttonForm,
  problemFlash,
  field,
  formAction,
  input,
  pager,
  pageRequest,
  pageState,
  postForm,
  redirectTo,
  render,
  type PageContext,
} from './forms';
import type { PageRoutes } from './page-routes';
import type { DashboardServices } from '../services';
import { html, table, time, type Flash } from './layout';

/** The account's (or a tenant's) suppressed addresses, newest first, or one address with its category opt-outs; and the add form. */
async function suppressionListPage(services: DashboardServices, c: PageContext): Promise<Response> {
  const state = pageState(c);
  const email = c.req.query('email')?.trim() || undefined;
  const tenant = c.req.query('tenant')?.trim() || undefined;
  let items: Suppression[] = [];
  let optOuts: CategoryOptOut[] = [];
  let next: string | null = null;
  let problem: Flash | null = null;
  try {
    const filters = parseWith(suppressionFiltersSchema, { email, tenant }, 'query');
    const { result } = await listSuppressions(services, c.get('principal'), { ...filters, ...pageRequest(state) });
    items = result.items;
    optOuts = result.categoryOptOuts ?? [];
    next = result.next_cursor;
  } catch (error) {
    problem = problemFlash(error);
  }
  const rows = items.map(
    (suppression) =>
      html`<tr><td id="s-${suppression.id}">${suppression.email}</td><td>${suppression.reason}</td><td>${tenant ?? 'account'}</td><td>${time(suppression.created_at)}</td><td>${buttonForm(c, '/dashboard/suppressions/remove', 'Remove', { className: 'danger', hidden: { email: suppression.email, ...(tenant ? { tenant } : {}) }, describedBy: `s-${suppression.id}` })}</td></tr>`,
  );
  const body = html`<form method="get" action="/dashboard/suppressions" role="search" aria-label="Search suppressions" class="card"><div class="fields">${input('Email', 'email', { type: 'search', value: email, hint: 'An exact address.' })}${input('Tenant', 'tenant', { type: 'search', value: tenant, hint: "Empty: the account's list." })}<div class="field"><button type="submit">Search</button></div></div></form>
${table(email ? `Suppression of ${email}` : 'Suppressed addresses, newest first', ['Email', 'Reason', 'List', 'Added', 'Actions'], rows, email ? `${email} is not suppressed.` : 'No suppressed addresses.')}
${
  optOuts.length
    ? table(
        `Category opt-outs of ${email}`,
        ['Email', 'Category', 'Since'],
        optOuts.map((optOut) => html`<tr><td>${optOut.email}</td><td>${optOut.category}</td><td>${time(optOut.created_at)}</td></tr>`),
      )
    : ''
}
${pager('/dashboard/suppressions', { email, tenant }, state, next)}
<section aria-labelledby="add-heading"><h2 id="add-heading">Suppress an address</h2>${postForm(
    c,
    '/dashboard/suppressions',
    html`<div class="fields">${input('Email address', 'email', { type: 'email', required: true })}${input('Tenant', 'tenant', { hint: "Optional: a tenant's list instead of the account's." })}<div class="field"><button type="submit">Add suppression</button></div></div>`,
  )}<p class="hint">Nothing is sent to a suppressed address until it is removed. Bounces and complaints add addresses here by themselves.</p></section>
<p><a href="/dashboard/validations">Validate addresses</a> before you send to them.</p>`;
  return render(c, { title: 'Suppressions', body, ...(problem ? { flash: problem } : {}) });
}

export function addSuppressionPages(routes: PageRoutes): void {
  const { services } = routes;

  routes.page('/suppressions', (c) => suppressionListPage(services, c));

  routes.action('/suppressions', (c, form) =>
    formAction(c, '/dashboard/suppressions', async () => {
      const tenant = field(form, 'tenant');
      const input = parseWith(addSuppressionsSchema, { email: field(form, 'email') ?? '', ...(tenant ? { tenant } : {}) });
      if ('category' in input) throw new Error('unreachable: the form sends no category');
      const { result } = await addSuppressions(services, c.get('principal'), input);
      const address = input.emails[0]!;
      const list = `/dashboard/suppressions?${new URLSearchParams({ email: address, ...(tenant ? { tenant } : {}) })}`;
      return redirectTo(c, list, {
        kind: 'ok',
        text: result.created.length ? `${address} is suppressed.` : `${address} was already suppressed.`,
      });
    }),
  );

  routes.action('/suppressions/remove', (c, form) =>
    formAction(c, '/dashboard/suppressions', async () => {
      const tenant = field(form, 'tenant');
      const input = parseWith(removeSuppressionSchema, { email: field(form, 'email') ?? '', ...(tenant ? { tenant } : {}) });
      await removeSuppression(services, c.get('principal'), input);
      return redirectTo(c, tenant ? `/dashboard/suppressions?${new URLSearchParams({ tenant })}` : '/dashboard/suppressions', {
        kind: 'ok',
        text: `${input.email} is no longer suppressed.`,
      });
    }),
  );
}
