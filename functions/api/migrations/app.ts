/**
 * The migrations group (docs/imports.md): POST /migrations (start or continue an import from SendGrid,
 * Postmark or Mailgun), GET /migrations (newest first), GET /migrations/{id} (all requests merged),
 * GET /migrations/{id}/report (CSV, or JSON with ?format=json).
 */
import type { Hono } from 'hono';
import { REPORT_COLUMNS, reportRows, toCsv } from '#shared/domain/imports/report-rows';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { listPage } from '#shared/doors/http/pagination';
import { routes } from '#shared/doors/http/route';
import { migrationOps } from './operations';
import type {
  AccessServices,
  DomainServices,
  ImportProviderServices,
  ImportServices,
  Platform,
  SecretServices,
  TenantServices,
  WebhookServices,
  TemplateServices,
  SuppressionServices,
} from '#shared/services';
import { toImportSummary } from '#shared/domain/imports/public-import';
import { getImport, listImports, loadImport } from '#shared/usecases/imports/import-report';
import { runImport } from '#shared/usecases/imports/run-import';

/** What the group uses (its handler composes exactly this: shared/services/). */
export type MigrationsServices = Platform &
  AccessServices &
  SecretServices &
  ImportServices &
  ImportProviderServices &
  TenantServices &
  DomainServices &
  WebhookServices &
  TemplateServices &
  SuppressionServices;

export function createMigrationsApp(services: MigrationsServices): Hono<ApiEnv> {
  const app = createApi(services);
  const route = routes(app);

  // Scopes are checked by the use case: they depend on the resources asked for (scopesCheckedBy).
  route(migrationOps.startImport, async (c, { body }) => {
    const migration = await runImport(services, c.get('principal'), body);
    c.header('cache-control', 'no-store');
    return c.json({ migration });
  });

  route(migrationOps.listImports, async (c, { query }) => {
    return c.json(listPage('migrations', await listImports(services, c.get('principal'), query)));
  });

  route(migrationOps.getImport, async (c, { params }) => {
    return c.json({ migration: await getImport(services, c.get('principal'), params.id) });
  });

  route(migrationOps.downloadImportReport, async (c, { query, params }) => {
    const { head, report } = await loadImport(services, c.get('principal'), params.id);
    const rows = reportRows(report);
    if (query.format === 'json') return c.json({ migration: toImportSummary(head), columns: REPORT_COLUMNS, rows });
    c.header('content-type', 'text/csv; charset=utf-8');
    c.header('content-disposition', `attachment; filename="${head.id}-report.csv"`);
    return c.body(toCsv(rows));
  });

  return app;
}
