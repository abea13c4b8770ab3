/** The account group's Account routes: GET and PATCH /account, the account's settings (docs/retention.md). */
import type { Hono } from 'hono';
import type { ApiEnv } from '../../../shared/doors/http/env';
import { routes } from '../../../shared/doors/http/route';
import { accountOps } from '../../../shared/doors/openapi/operations/account';
import type { BlobServices, CoreServices } from '../../../shared/services';
import { getAccountSettings, updateAccountSettings } from '../../../shared/usecases/account/settings';

export function addAccountRoutes(app: Hono<ApiEnv>, services: CoreServices & BlobServices): void {
  const route = routes(app);

  route(accountOps.getAccount, async (c) => c.json(getAccountSettings(c.get('principal'))));

  route(accountOps.updateAccount, async (c, { body }) => c.json(await updateAccountSettings(services, c.get('principal'), body)));
}
