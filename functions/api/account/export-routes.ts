/** The account group's Export routes (docs/exports.md): each handler one use case of shared/usecases/exports. */
import type { Hono } from 'hono';
import type { ApiEnv } from '#shared/doors/http/env';
import { listPage } from '#shared/doors/http/pagination';
import { routes } from '#shared/doors/http/route';
import { exportOps } from './export-operations';
import type { AccountServices } from './services';
import { exportSettingsOf, type ExportDeps } from '#shared/usecases/exports/deps';
import { getExport, listExports, startExport } from '#shared/usecases/exports/exports';

/** The export use cases' deps from the group's services. */
export function exportDepsOf(services: AccountServices): ExportDeps {
  return { ...services, exportSettings: exportSettingsOf(services.config.imports) };
}

export function addExportRoutes(app: Hono<ApiEnv>, services: AccountServices): void {
  const route = routes(app, services);
  const deps = exportDepsOf(services);

  route(exportOps.startExport, async (c) => c.json({ export: await startExport(deps, c.get('principal')) }, 201));

  route(exportOps.listExports, async (c, { query }) => c.json(listPage('exports', await listExports(deps, c.get('principal'), query))));

  route(exportOps.getExport, async (c, { params }) => c.json({ export: await getExport(deps, c.get('principal'), params.id) }));
}
