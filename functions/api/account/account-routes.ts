/** The account group's Account routes: GET and PATCH /account, the account's settings (docs/retention.md); GET /account/stats (docs/deliverability.md). */
import type { Hono } from 'hono';
import type { ApiEnv } from '#shared/doors/http/env';
import { routes } from '#shared/doors/http/route';
import { accountOps } from './account-operations';
import type { AccountServices } from './services';
import { getAccountSettings, updateAccountSettings } from '#shared/usecases/account/settings';
import { getAccountStats } from '#shared/usecases/account/account-stats';

export function addAccountRoutes(app: Hono<ApiEnv>, services: AccountServices): void {
  const route = routes(app);

  route(accountOps.getAccount, async (c) => c.json(getAccountSettings(c.get('principal'))));

  route(accountOps.getAccountStats, async (c, { query }) => c.json(await getAccountStats(services, c.get('principal'), query.days)));

  route(accountOps.updateAccount, async (c, { body }) => c.json(await updateAccountSettings(services, c.get('principal'), body)));
}
