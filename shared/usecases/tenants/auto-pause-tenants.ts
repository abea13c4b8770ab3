/**
 * After a stats batch counted bounces or complaints of some tenants: each of them whose window crosses
 * a threshold (shared/domain/tenants/auto-pause.ts) is paused by the service, with a write conditional
 * on it still being active (a manual pause is never overwritten; concurrent checks pause once). The
 * pause itself becomes tenant.paused through the table's stream (tenant-events).
 */
import { AUTO_PAUSE, autoPauseReason } from '../../domain/tenants/auto-pause';
import { daysBack, utcDay } from '../../domain/tenants/ramp';
import type { TenantStatsRepository } from '../../adapters/store/tenant-stats';
import type { TenantRepository } from '../../adapters/store/tenants';

export interface AutoPauseDeps {
  tenantStats: Pick<TenantStatsRepository, 'read'>;
  tenants: Pick<TenantRepository, 'pauseAutomatically'>;
}

/** Returns the ids of the tenants paused now. */
export async function autoPauseTenants(deps: AutoPauseDeps, tenantIds: readonly string[], now: Date): Promise<string[]> {
  const window = daysBack(utcDay(now), AUTO_PAUSE.windowDays);
  const paused: string[] = [];
  for (const tenantId of new Set(tenantIds)) {
    const reason = autoPauseReason(await deps.tenantStats.read(tenantId, window));
    if (reason && (await deps.tenants.pauseAutomatically(tenantId, reason, now.toISOString()))) paused.push(tenantId);
  }
  return paused;
}
