/**
 * Tenant day stats: the table's stream (writes of tenant emails, filtered by the event source) -> the
 * tenants' day counters. Partial batch failures resume at the first record not counted.
 */
import { createDynamoClient } from '../../../shared/adapters/aws/dynamo-client';
import { ENV, loadConfig, required } from '../../../shared/config/config';
import { logError, logInfo } from '../../../shared/lib/log';
import { serviceClock } from '../../../shared/adapters/clock';
import { tenantEmailWrites } from '../../../shared/adapters/store/tenant-email-changes';
import { TenantStatsRepository } from '../../../shared/adapters/store/tenant-stats';
import { TenantRepository } from '../../../shared/adapters/store/tenants';
import { aggregateTenantStats } from '../../../shared/usecases/tenants/aggregate-tenant-stats';
import { forEachStreamBatch } from '../../../shared/doors/worker/for-each-stream-record';

const config = loadConfig();
const table = { client: createDynamoClient(config), name: required(config, 'tableName', ENV.tableName) };
const stats = new TenantStatsRepository(table);
const deps = { stats, autoPause: { tenantStats: stats, tenants: new TenantRepository(table), clock: serviceClock, log: logError } };

export const handler = forEachStreamBatch('tenant-stats', tenantEmailWrites, async (items) => {
  const result = await aggregateTenantStats(deps, items);
  if (result.failure) logError('tenant-stats: batch stopped', new Error(result.failure), { records: items.length, done: result.done });
  else logInfo('tenant-stats', { records: items.length, counters: result.written, ...(result.paused?.length ? { paused: result.paused } : {}) });
  return { done: result.done };
});
