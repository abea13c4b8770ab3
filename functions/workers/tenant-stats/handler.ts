/**
 * Day stats: the table's stream (writes of emails, filtered by the event source) -> the tenants', accounts'
 * and deployment's day counters, then the tenants' automatic pause and the reputation brake on what the batch
 * counted (docs/deliverability.md, "Reputation guard"). Partial batch failures resume at the first record not
 * counted.
 */
import { createDynamoClient } from '#shared/adapters/aws/dynamo-client';
import { ENV, loadConfig, required } from '#shared/config/config';
import { logError, logInfo } from '#shared/lib/log';
import { serviceClock } from '#shared/adapters/clock';
import { emailStatsWrites } from '#shared/adapters/store/email-stats-changes';
import { AccountStatsRepository } from '#shared/adapters/store/account-stats';
import { AccountRepository } from '#shared/adapters/store/accounts';
import { TenantStatsRepository } from '#shared/adapters/store/tenant-stats';
import { TenantRepository } from '#shared/adapters/store/tenants';
import { brakeSettingsOf } from '#shared/domain/reputation/brake';
import { aggregateStats } from '#shared/usecases/reputation/aggregate-stats';
import { forEachStreamBatch } from '#shared/doors/worker/for-each-stream-record';

const config = loadConfig();
const table = { client: createDynamoClient(config), name: required(config, 'tableName', ENV.tableName) };
const counters = new AccountStatsRepository(table);
const tenantStats = new TenantStatsRepository(table);
const tenants = new TenantRepository(table);
const { settings, replaced } = brakeSettingsOf(config.reputation);
if (replaced.length)
  logError('tenant-stats: reputation settings out of range, defaults used', new Error(replaced.join(', ')), { settings });
const deps = {
  counters,
  autoPause: { tenantStats, tenants, clock: serviceClock, log: logError },
  brake: {
    accountStats: counters,
    tenantStats,
    accounts: new AccountRepository(table),
    tenants,
    settings,
    clock: serviceClock,
    log: logError,
  },
};

export const handler = forEachStreamBatch('tenant-stats', emailStatsWrites, async (items) => {
  const result = await aggregateStats(deps, items);
  if (result.failure) logError('tenant-stats: batch stopped', new Error(result.failure), { records: items.length, done: result.done });
  else
    logInfo('tenant-stats', {
      records: items.length,
      counters: result.written,
      ...(result.paused?.length ? { paused: result.paused } : {}),
      ...(result.braked?.length ? { braked: result.braked } : {}),
    });
  return { done: result.done };
});
