/**
 * The frame of the three dashboard functions (./app.ts, functions/api/dashboard-emails,
 * functions/api/dashboard-domains), in a module of its own so that the other two do not bundle the main
 * function's routes.
 */
import type { Hono } from 'hono';
import { createFrame } from '../../../shared/doors/http/create-api';
import type { ApiEnv } from '../../../shared/doors/http/env';
import { auditChanges, auditDepsFromEnvironment, auditDepsOf, dashboardSucceeded } from '../../../shared/doors/http/middleware/audit';
import type { Config } from '../../../shared/config/config';
import type { Clock } from '../../../shared/ports';

/**
 * The frame of every dashboard function: answers are never cached (they carry CSRF tokens and account
 * data), except the content-hashed static assets, which say so themselves. Every successful change by a
 * signed-in user is recorded in the audit log (docs/audit-log.md): on the configuration of `services`, or,
 * without them, of the function's environment.
 */
export function createDashboardFrame(services?: { config?: Config; clock?: Clock }): Hono<ApiEnv> {
  const app = createFrame();
  const config = services?.config;
  app.use('*', auditChanges(config ? auditDepsOf(config, services?.clock) : auditDepsFromEnvironment, { succeeded: dashboardSucceeded }));
  app.use('*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });
  return app;
}
