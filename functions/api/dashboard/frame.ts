/**
 * The frame of the four dashboard functions (./app.ts, functions/api/dashboard-emails,
 * functions/api/dashboard-domains, functions/api/dashboard-send), in a module of its own so that the others do
 * not bundle the main function's routes.
 */
import type { Hono } from 'hono';
import { createFrame } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { auditChanges, dashboardSucceeded, type AuditMiddlewareDeps } from '#shared/doors/http/middleware/audit';

/**
 * The frame of every dashboard function: answers are never cached (they carry CSRF tokens and account
 * data), except the content-hashed static assets, which say so themselves. Every successful change by a
 * signed-in user is recorded in the audit log of `services` (docs/audit-log.md; unit tests' stubs have none).
 */
export function createDashboardFrame(services: Partial<AuditMiddlewareDeps> = {}): Hono<ApiEnv> {
  const app = createFrame();
  if (services.auditLog && services.clock)
    app.use('*', auditChanges({ auditLog: services.auditLog, clock: services.clock }, { succeeded: dashboardSucceeded }));
  app.use('*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });
  return app;
}
