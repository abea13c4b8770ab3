/**
 * Imports from SendGrid, Postmark and Mailgun (docs/imports.md): the list, newest first, and one
 * import's report (the same rows as GET /migrations/{id}/report, also as CSV here). Starting an import
 * stays with the API (POST /migrations: it works up to ~25 s per request against the provider).
 * Use cases: listImports, loadImport, toImportSummary (the migrations group's).
 */
import { reportRows, toCsv } from '#shared/domain/imports/report-rows';
import { toImportSummary } from '#shared/domain/imports/public-import';
import { listImports, loadImport } from '#shared/usecases/imports/import-report';
import { pager, pageRequest, pageState, render, param } from './forms';
import type { PageRoutes } from './page-routes';
import { badge, html, table, time } from './layout';

export function addImportPages(routes: PageRoutes): void {
  const { services } = routes;

  routes.page('/imports', async (c) => {
    const state = pageState(c);
    const page = await listImports(services, c.get('principal'), pageRequest(state));
    const rows = page.items.map(
      (migration) =>
        html`<tr><td><a href="/dashboard/imports/${migration.id}">${migration.id}</a></td><td>${migration.provider}</td><td>${badge(migration.status)}</td><td>${migration.resources.join(', ')}</td><td>${time(migration.created_at)}</td></tr>`,
    );
    const body = html`${table('Imports, newest first', ['Import', 'From', 'Status', 'Resources', 'Started'], rows, 'No imports yet.')}
${pager('/dashboard/imports', {}, state, page.next_cursor)}
<p class="hint">Start an import with the API: <code>POST /migrations {"provider": "sendgrid", "api_key": "..."}</code> (docs/imports.md). Its report shows here.</p>`;
    return render(c, { title: 'Imports', body });
  });

  routes.page('/imports/:id', async (c) => {
    const { head, report } = await loadImport(services, c.get('principal'), param(c, 'id'));
    const summary = toImportSummary(head);
    const rows = reportRows(report).map(
      (row) =>
        html`<tr><td>${row.resource}</td><td>${row.item}</td><td>${badge(row.status)}</td><td>${row.id ? html`<code>${row.id}</code>` : ''}</td><td class="num">${row.count}</td><td>${row.message}</td></tr>`,
    );
    const body = html`<dl class="facts"><dt>From</dt><dd>${summary.provider}${summary.region ? ` (${summary.region})` : ''}</dd><dt>Status</dt><dd>${badge(summary.status)}${summary.has_more ? ' (more to import: POST /migrations again with the same key continues it)' : ''}</dd><dt>Resources</dt><dd>${summary.resources.join(', ')}</dd><dt>Requests</dt><dd>${summary.requests}</dd><dt>Started</dt><dd>${time(summary.created_at)}</dd><dt>Updated</dt><dd>${time(summary.updated_at)}</dd></dl>
<section aria-labelledby="report-heading"><h2 id="report-heading">Report</h2>${table('Every imported item and count', ['Resource', 'Item', 'Status', 'ID', 'Count', 'Message'], rows, 'Nothing imported yet.')}
<p><a href="/dashboard/imports/${summary.id}/report.csv" download>Download the report as CSV</a></p></section>`;
    return render(c, { title: `Import ${summary.id}`, lead: html`<p><a href="/dashboard/imports">← All imports</a></p>`, body });
  });

  routes.page('/imports/:id/report.csv', async (c) => {
    const { head, report } = await loadImport(services, c.get('principal'), param(c, 'id'));
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="${head.id}-report.csv"`);
    return c.body(toCsv(reportRows(report)));
  });
}
