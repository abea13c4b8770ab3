/**
 * The account group (docs/privacy.md): the account's own settings (GET/PATCH /account: retention, content
 * storage), erasure of a person's data (/privacy/erasures), account exports (/exports) and the audit log (/audit-log). Each part registers
 * its routes from its own module.
 */
import type { Hono } from 'hono';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import type { AccountServices } from './services';
import { addAccountRoutes } from './account-routes';
import { addAuditRoutes } from './audit-routes';
import { addErasureRoutes } from './erasure-routes';
import { addExportRoutes } from './export-routes';

/** What the group uses (its handler composes exactly this: shared/services/). */

export type { AccountServices } from './services';

export function createAccountApp(services: AccountServices): Hono<ApiEnv> {
  const app = createApi(services);
  addAccountRoutes(app, services);
  addErasureRoutes(app, services);
  addExportRoutes(app, services);
  addAuditRoutes(app, services);
  return app;
}
