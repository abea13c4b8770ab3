/**
 * The dashboard's pages (docs/dashboard.md, "Pages"), mounted at /dashboard by ../app.ts: server-rendered
 * HTML, plain forms (POST-redirect-GET), the static assets, one module per area. Every page and action
 * calls the same use cases as the API (shared/usecases/*) with the session's principal; none reads the
 * table directly.
 *
 * Routes are relative to /dashboard. `page` (GET) and `action` (POST) routes go through requireSession:
 * without a live session, a page is a 302 to the sign-in page with `next` and an action a 303 to it; an
 * action also needs its own origin and the CSRF token (403). Errors render as HTML pages (./forms.ts
 * pageError, which also makes those redirects).
 */
import { Hono } from 'hono';
import { NotFoundError } from '#shared/domain/errors';
import { plausiblePaths } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { requireSession } from '#shared/doors/http/middleware/session';
import type { SessionDeps } from '#shared/usecases/dashboard/sessions';
import type { DashboardServices } from '../services';
import { addApiKeyPages, addSmtpCredentialPages } from './credentials';
import { ASSETS } from './assets';
import { addAuditLogPages } from './audit-log';
import { addAutomationPages } from './automations';
import { HOME_PATH, pageError, readForm } from './forms';
import { addImportPages } from './imports';
import { addMemberPages } from './members';
import { addSettingsPages } from './settings';
import { signInPage } from './sign-in';
import { addSuppressionPages } from './suppressions';
import { addTemplatePages } from './templates';
import { addTenantPages } from './tenants';
import type { PageArea, PageRoutes } from './page-routes';
import { addWebhookPages } from './webhooks';

/**
 * The pages of `areas`, relative to /dashboard, behind one session check (without a live session it
 * throws 401, which pageError turns into the sign-in page: 302 with `next` for a page, 303 for a form
 * post), and the HTML 404 for any other path the function is sent. Each dashboard function (the main
 * one, dashboard-emails, dashboard-domains: infra/definitions/api-groups.ts) serves its own areas with its own
 * services.
 */
export function createPages<S extends SessionDeps>(
  services: S,
  areas: PageArea<S>[],
  before?: (pages: Hono<ApiEnv>) => void,
): Hono<ApiEnv> {
  const pages = new Hono<ApiEnv>();
  pages.onError(pageError);
  const session = requireSession(services);
  const routes: PageRoutes<S> = {
    services,
    page: (path, handler) => pages.get(path, session, plausiblePaths(), (c) => handler(c)),
    action: (path, handler) => pages.post(path, session, plausiblePaths(), async (c) => handler(c, await readForm(c))),
  };
  before?.(pages);
  for (const area of areas) area(routes);
  // Any other page: the HTML 404 (after the areas' routes, and after ../session-routes.ts, registered first).
  routes.page('*', (c) => {
    throw new NotFoundError(`The page ${c.req.path}`);
  });
  return pages;
}

/**
 * The main dashboard function's pages: the static assets, the sign-in page, and every area but emails,
 * received email (dashboard-emails) and domains (dashboard-domains); the members page (./members.ts) and
 * the audit log (./audit-log.ts) and the account's settings (./settings.ts) too.
 */
export function createDashboardPages(services: DashboardServices): Hono<ApiEnv> {
  return createPages<DashboardServices>(
    services,
    [
      addApiKeyPages,
      addSmtpCredentialPages,
      addWebhookPages,
      addSuppressionPages,
      addTenantPages,
      addTemplatePages,
      addAutomationPages,
      addImportPages,
      addMemberPages,
      addAuditLogPages,
      addSettingsPages,
    ],
    (pages) => {
      // The static assets: content-hashed URLs, so cached for a year (a new version is a new URL).
      for (const asset of Object.values(ASSETS)) {
        pages.get(asset.path.slice('/dashboard'.length), (c) => {
          c.header('Content-Type', asset.type);
          c.header('Cache-Control', 'public, max-age=31536000, immutable');
          c.header('X-Content-Type-Options', 'nosniff');
          return c.body(asset.body);
        });
      }
      pages.get('/', (c) => c.redirect(HOME_PATH, 302));
      pages.get('/sign-in', (c) => signInPage(c, { next: c.req.query('next'), oidc: services.oidc?.settings ?? null }));
    },
  );
}
