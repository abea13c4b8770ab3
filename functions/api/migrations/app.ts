/**
 * The migrations group (docs/imports.md): POST /migrations (start or continue an import from SendGrid,
 * Postmark or Mailgun), GET /migrations (newest first), GET /migrations/{id} (all requests merged),
 * GET /migrations/{id}/report (CSV, or JSON with ?format=json).
 */
import type { Hono } from 'hono';
import { listImportsQuerySchema, reportQuerySchema, startImportSchema } from '../../../shared/domain/migrations/schemas';
import { REPORT_COLUMNS, reportRows, toCsv } from '../../../shared/domain/migrations/report-rows';
import { createApi } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { jsonBody, parseWith } from '../../../shared/http/validate';
import type { CoreServices, ImportServices, SecretServices } from '../../../shared/services';
import { getImport, listImports, loadImport, toImportSummary } from '../../../shared/usecases/migrations/import-report';
import { runImport } from '../../../shared/usecases/migrations/run-import';

/** Reading imports: account:read, or the write scope of any resource an import writes. */
const READ_SCOPES = ['account:read', 'domains:write', 'webhooks:write', 'templates:write', 'suppressions:write'] as const;

/** What the group uses (its handler composes exactly this: shared/services/). */
export type MigrationsServices = CoreServices & SecretServices & ImportServices;

export function createMigrationsApp(services: MigrationsServices): Hono<ApiEnv> {
  const app = createApi(services);

  // Scopes are checked by the use case: they depend on the resources asked for.
  app.post('/migrations', async (c) => {
    const input = await jsonBody(c, startImportSchema);
    const migration = await runImport(services, c.get('principal'), input);
    c.header('cache-control', 'no-store');
    return c.json({ migration });
  });

  app.get('/migrations', requireScope(...READ_SCOPES), async (c) => {
    const query = parseWith(listImportsQuerySchema, c.req.query(), 'query');
    const page = await listImports(services, c.get('principal'), query);
    return c.json({ migrations: page.items, has_more: page.next_cursor !== null, next_cursor: page.next_cursor });
  });

  app.get('/migrations/:id', requireScope(...READ_SCOPES), async (c) => {
    return c.json({ migration: await getImport(services, c.get('principal'), c.req.param('id')) });
  });

  app.get('/migrations/:id/report', requireScope(...READ_SCOPES), async (c) => {
    const { format } = parseWith(reportQuerySchema, c.req.query(), 'query');
    const { head, report } = await loadImport(services, c.get('principal'), c.req.param('id'));
    const rows = reportRows(report);
    if (format === 'json') return c.json({ migration: toImportSummary(head), columns: REPORT_COLUMNS, rows });
    c.header('content-type', 'text/csv; charset=utf-8');
    c.header('content-disposition', `attachment; filename="${head.id}-report.csv"`);
    return c.body(toCsv(rows));
  });

  return app;
}
