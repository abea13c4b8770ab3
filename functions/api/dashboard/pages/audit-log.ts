/**
 * The audit log page (docs/audit-log.md, "Reading it"): the account's records, newest first, with the
 * API's filters (actor, action, since, until) and its pages. Owners and admins only: the log names every
 * member, key and the addresses they came from (developers and viewers get 403, as the role table says for
 * members: shared/domain/dashboard/roles.ts). Read-only: the log has no form that changes it.
 */
import type { AuditRecord } from '#shared/domain/audit/audit-record';
import { auditFilterSchema } from '#shared/domain/audit/audit-query';
import { can, roleRefusal } from '#shared/domain/dashboard/roles';
import { parseWith } from '#shared/doors/http/request-validation';
import { listAuditLog } from '#shared/usecases/audit/list';
import type { DashboardServices } from '../services';
import { input, pager, pageRequest, pageState, problemFlash, render } from './forms';
import type { PageRoutes } from './page-routes';
import { html, table, time, type Flash } from './layout';

export const AUDIT_LOG_PATH = '/dashboard/audit-log';

function actorText(record: AuditRecord): string {
  const actor = record.actor;
  if (actor.type === 'operator') return 'operator (admin CLI)';
  if (actor.type === 'api_key') return `key ${actor.id}${actor.name ? ` (${actor.name})` : ''}`;
  return actor.email ? `${actor.email} (${actor.role ?? 'user'})` : `unknown email (hash ${actor.email_hash ?? '?'})`;
}

export function addAuditLogPages(routes: PageRoutes<DashboardServices>): void {
  const { services } = routes;
  const deps = () => services;

  routes.page('/audit-log', async (c) => {
    const user = c.get('session').user;
    if (!can(user.role, 'manage_members')) throw roleRefusal(user.role, 'manage_members');
    const state = pageState(c);
    const raw = {
      actor: c.req.query('actor')?.trim() || undefined,
      action: c.req.query('action')?.trim() || undefined,
      since: c.req.query('since')?.trim() || undefined,
      until: c.req.query('until')?.trim() || undefined,
    };
    let records: AuditRecord[] = [];
    let next: string | null = null;
    let problem: Flash | null = null;
    try {
      const filters = parseWith(auditFilterSchema, raw, 'query');
      const page = await listAuditLog(deps(), c.get('principal'), { ...filters, ...pageRequest(state) });
      records = page.items;
      next = page.next_cursor;
    } catch (error) {
      problem = problemFlash(error);
    }
    const rows = records.map(
      (record) =>
        html`<tr><td>${time(record.created_at)}</td><td><code>${record.action}</code></td><td>${Object.entries(record.resource_ids).map(([name, id]) => html`<code>${name}=${id}</code> `)}</td><td>${actorText(record)}</td><td>${record.source_ip ?? ''}</td><td>${record.status ?? ''}</td><td><code>${record.id}</code></td></tr>`,
    );
    const body = html`<form method="get" action="${AUDIT_LOG_PATH}" role="search" aria-label="Filter the audit log" class="card"><div class="fields">${input('Actor', 'actor', { type: 'search', value: raw.actor, hint: 'A key id (key_...), user id (usr_...) or operator.' })}${input('Action', 'action', { type: 'search', value: raw.action, hint: 'E.g. createApiKey, signInFailed.' })}${input('Since', 'since', { type: 'search', value: raw.since, hint: 'ISO 8601, e.g. 2026-01-31T00:00:00Z.' })}${input('Until', 'until', { type: 'search', value: raw.until })}<div class="field"><button type="submit">Filter</button></div></div></form>
${table('Changes to this account, newest first', ['When', 'Action', 'Ids', 'Who', 'From', 'Status', 'Record'], rows, 'No records.')}
${pager(AUDIT_LOG_PATH, raw, state, next)}
<p class="hint">Kept 400 days. Nothing here can be changed or deleted.</p>`;
    return render(c, { title: 'Audit log', body, ...(problem ? { flash: problem } : {}) });
  });
}
