/**
 * Day stats: the table's stream (writes of emails, filtered by the event source) -> the tenants', accounts'
 * and deployment's day counters, then the tenants' automatic pause and the reputation brake on what the batch
 * counted (docs/deliverability.md, "Reputation guard"). Partial batch failures resume at the first record not
 * counted.
 */
import { logError, logInfo, logWarn } from '#shared/lib/log';
import { emailStatsWrites } from '#shared/adapters/store/email-stats-changes';
import { brakeSettingsOf } from '#shared/domain/reputation/brake';
import { aggregateStats } from '#shared/usecases/reputation/aggregate-stats';
import { forEachStreamBatch } from '#shared/doors/worker/for-each-stream-record';
import { buildAccess } from '#shared/services/access';
import { buildAccountStats } from '#shared/services/deliverability';
import { buildPlatform } from '#shared/services/platform';
import { buildTenants } from '#shared/services/tenants';

// The composition root: only the capabilities the worker uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const { accountStats: counters } = buildAccountStats(platform);
const { tenants, tenantStats } = buildTenants(platform);
const { accounts } = buildAccess(platform);
const clock = platform.clock;
const { settings, replaced } = brakeSettingsOf(platform.config.reputation);
if (replaced.length)
  logError('tenant-stats: reputation settings out of range, defaults used', new Error(replaced.join(', ')), { settings });
const deps = {
  counters,
  autoPause: { tenantStats, tenants, clock, log: logError },
  brake: {
    accountStats: counters,
    tenantStats,
    accounts,
    tenants,
    settings,
    clock,
    log: logError,
  },
};

export const handler = forEachStreamBatch('tenant-stats', emailStatsWrites, async (items) => {
  const result = await aggregateStats(deps, items);
  if (result.failure) logError('tenant-stats: batch stopped', new Error(result.failure), { records: items.length, done: result.done });
  else {
    // A pause or a brake is the operator's business (docs/deploy.md, "Reputation alarms"): a warning, written at the
    // functions' default level; the counters alone are info.
    const stopped = Boolean(result.paused?.length || result.braked?.length);
    (stopped ? logWarn : logInfo)('tenant-stats', {
      records: items.length,
      counters: result.written,
      ...(result.paused?.length ? { paused: result.paused } : {}),
      ...(result.braked?.length ? { braked: result.braked } : {}),
    });
  }
  return { done: result.done };
});
