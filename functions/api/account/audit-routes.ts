/**
 * The account group's audit-log routes (docs/audit-log.md): GET /audit-log only. No route writes, changes
 * or deletes a record (other methods on /audit-log are 404, as any path no route serves).
 */
import type { Hono } from 'hono';
import { toPublicAuditRecord } from '#shared/domain/audit/audit-record';
import type { ApiEnv } from '#shared/doors/http/env';
import { listPage } from '#shared/doors/http/pagination';
import { routes } from '#shared/doors/http/route';
import { auditOps } from './audit-operations';
import type { AccountServices } from './services';
import { listAuditLog } from '#shared/usecases/audit/list';

export function addAuditRoutes(app: Hono<ApiEnv>, services: AccountServices): void {
  const route = routes(app, services);

  route(auditOps.listAuditLog, async (c, { query }) =>
    c.json(listPage('audit_records', await listAuditLog(services, c.get('principal'), query), toPublicAuditRecord)),
  );
}
