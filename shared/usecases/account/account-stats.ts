/**
 * GET /account/stats?days= (docs/deliverability.md, "Account stats"): the account's sent, bounced and complained
 * emails and its bounces by category over the last `days` UTC days (today included), in all and per day: one
 * batch read of the stats worker's account day counters (at most 90 items), whatever the account sent. A key
 * limited to a tenant sees its tenant's stats instead (GET /tenants/{tenant}/stats): 403 here.
 */
import { accountStatsView, type AccountStats } from '../../domain/reputation/account-stats';
import { daysBack, utcDay } from '../../domain/tenants/ramp';
import { ForbiddenError } from '../../domain/errors';
import type { Clock } from '../../ports/clock';
import type { AccountStatsRepository } from '../../adapters/store/account-stats';
import type { Principal } from '../access/principal';
import { limitedTenantOf } from '../access/visibility';

export interface AccountStatsDeps {
  accountStats: Pick<AccountStatsRepository, 'readDays'>;
  clock: Clock;
}

export async function getAccountStats(deps: AccountStatsDeps, principal: Principal, days: number): Promise<AccountStats> {
  if (limitedTenantOf(principal)) {
    throw new ForbiddenError(
      "This key is limited to a tenant: its stats are GET /tenants/{tenant}/stats; the account's take a key of the whole account.",
    );
  }
  const window = daysBack(utcDay(deps.clock.now()), days);
  const perDay = await deps.accountStats.readDays(principal.account.id, window);
  return accountStatsView(perDay.map((day) => ({ day: day.day, ...day.all, tenants: day.tenants, categories: day.categories })));
}
