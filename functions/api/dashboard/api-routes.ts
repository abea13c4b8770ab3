/**
 * The spec's session doors (Authentication 5: "Dashboard session cookies also work for browser requests
 * to /api/events and /api/webhooks"): `/api/events` and `/api/webhooks[/...]` answer exactly what
 * `/events` and `/webhooks` answer for a full-access API key, from the same route code
 * (functions/api/automations/events-routes.ts, functions/api/webhooks/routes.ts) behind session
 * authentication (cookie, and CSRF on state-changing requests) instead of the API key.
 *
 * Session only: a Bearer API key is not a credential here (401 without the cookie), as Resend's
 * dashboard endpoints are: keys have /events and /webhooks, and only a session may dry-run (docs/dashboard.md).
 */
import { Hono } from 'hono';
import { plausiblePaths } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { requireSession } from '#shared/doors/http/middleware/session';
import type { DashboardServices } from './services';
import { addEventRoutes } from '../automations/events-routes';
import { addWebhookRoutes } from '../webhooks/routes';

/** The routes, relative to /api (mounted there by ./app.ts: ./pages/doors.ts SESSION_API_BASE). */
export function createSessionApi(services: DashboardServices): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();
  api.use('*', requireSession(services));
  api.use('*', plausiblePaths());
  addEventRoutes(api, services);
  addWebhookRoutes(api, services);
  return api;
}
