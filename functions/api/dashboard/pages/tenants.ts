/**
 * Tenants: the list with each tenant's status, ramp and last-7-days stats, bounces by category included (listTenants, then
 * getTenantStats for the tenants of the page, in parallel: a bounded read per tenant, as GET
 * /tenants/{tenant}/stats). An account without tenants enabled sees why.
 */
import { AppError } from '#shared/domain/errors';
import type { Tenant } from '#shared/domain/tenants/tenant';
import { getTenantStats } from '#shared/usecases/tenants/get-tenant-stats';
import { BOUNCE_CATEGORIES, BOUNCE_CATEGORY_LABELS, type BounceCategory } from '#shared/domain/bounces/bounce-category';
import { listTenants } from '#shared/usecases/tenants/tenants';
import { pager, pageState, render } from './forms';
import type { PageRoutes } from './page-routes';
import { badge, html, percent, table, time, type Html } from './layout';

export const STATS_DAYS = 7;
const PAGE = 20;

/** The bounce categories a tenant's bounces and delivery failures fell in, most first (docs/deliverability.md, "Bounce categories"). */
function bouncesByCategory(categories: Record<BounceCategory, number>): Html {
  const counted = BOUNCE_CATEGORIES.filter((category) => categories[category] > 0).sort((a, b) => categories[b] - categories[a]);
  if (counted.length === 0) return html`<span class="muted">none</span>`;
  return html`${counted.map((category, i) => html`${i ? ', ' : ''}${BOUNCE_CATEGORY_LABELS[category]} ${categories[category]}`)}`;
}

export function addTenantPages(routes: PageRoutes): void {
  const { services } = routes;

  routes.page('/tenants', async (c) => {
    const principal = c.get('principal');
    const state = pageState(c);
    let tenants: Tenant[];
    let next: string | null;
    try {
      const page = await listTenants(services, principal, { limit: PAGE, cursor: state.cursor });
      tenants = page.items;
      next = page.next_cursor;
    } catch (error) {
      if (error instanceof AppError && error.code === 'tenants_not_enabled') {
        return render(c, {
          title: 'Tenants',
          body: html`<p>${error.message}</p><p class="hint">Tenants let one account send for many customers, each with its own domains, limits, suppression list and stats (docs/tenants.md).</p>`,
        });
      }
      throw error;
    }
    const stats = await Promise.all(tenants.map((tenant) => getTenantStats(services, principal, tenant.id, STATS_DAYS)));
    const rows: Html[] = tenants.map((tenant, i) => {
      const { stats: counts, ramp } = stats[i]!;
      const rampText = ramp.completed
        ? 'complete'
        : `stage ${ramp.stage}: ${ramp.used_today.transactional}/${ramp.daily_limit?.transactional ?? '∞'} transactional, ${ramp.used_today.product}/${ramp.daily_limit?.product ?? '∞'} product today`;
      return html`<tr><th scope="row">${tenant.external_id}${tenant.name ? html`<br><span class="muted">${tenant.name}</span>` : ''}</th><td>${badge(tenant.status)}${tenant.paused_reason ? html`<br><span class="muted">${tenant.paused_reason}</span>` : ''}</td><td>${rampText}</td><td class="num">${counts.total}</td><td class="num">${counts.sent}</td><td class="num">${counts.delivered}</td><td class="num">${percent(counts.sent ? counts.bounce_rate : null)}</td><td class="num">${percent(counts.sent ? counts.complaint_rate : null)}</td><td>${bouncesByCategory(counts.bounce_categories)}</td><td>${time(tenant.created_at)}</td></tr>`;
    });
    const body = html`<p class="hint">Stats: the last ${STATS_DAYS} UTC days, by day of acceptance; rates are shares of the emails sent.</p>
${table('Tenants, newest first', ['Tenant', 'Status', 'Ramp', 'Accepted', 'Sent', 'Delivered', 'Bounce rate', 'Complaint rate', 'Bounces by category', 'Created'], rows, 'No tenants yet (POST /tenants creates one).')}
${pager('/dashboard/tenants', {}, state, next)}`;
    return render(c, { title: 'Tenants', body });
  });
}
