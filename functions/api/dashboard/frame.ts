/**
 * The frame of the three dashboard functions (./app.ts, functions/api/dashboard-emails,
 * functions/api/dashboard-domains), in a module of its own so that the other two do not bundle the main
 * function's routes.
 */
import type { Hono } from 'hono';
import { createFrame } from '../../../shared/doors/http/create-api';
import type { ApiEnv } from '../../../shared/doors/http/env';

/**
 * The frame of every dashboard function: answers are never cached (they carry CSRF tokens and account
 * data), except the content-hashed static assets, which say so themselves.
 */
export function createDashboardFrame(): Hono<ApiEnv> {
  const app = createFrame();
  app.use('*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });
  return app;
}
