/**
 * GET /tenants/{tenant}/stats?days=: the tenant's counters over the last `days` UTC days (today
 * included) and its ramp. Bounded reads whatever the tenant sent: one batch of day counters (at most
 * 90 items), the ramp's counters for today, and the ramp evaluation once a day.
 */
import { daysBack, rampView, utcDay } from '../../domain/tenants/ramp';
import { statsView } from '../../domain/tenants/stats';
import { publicTenant } from '../../domain/tenants/tenant';
import type { Clock } from '../../ports/clock';
import type { Principal } from '../access/principal';
import { rampForToday, rampUsage, type TenantRampDeps } from './tenant-ramp';
import { resolveStoredTenant } from '../access/tenant-scope';

export interface TenantStatsDeps extends TenantRampDeps {
  clock: Clock;
}

export async function getTenantStats(deps: TenantStatsDeps, principal: Principal, ref: string, days: number) {
  const stored = await resolveStoredTenant(deps, principal, ref, 'path');
  const now = deps.clock.now();
  const window = daysBack(utcDay(now), days);
  const ramp = await rampForToday(deps, stored, now);
  const [perDay, usedToday] = await Promise.all([
    deps.tenantStats.read(stored.tenant.id, window),
    rampUsage(deps, principal.account.id, stored.tenant.id, ramp.stage, ramp.day),
  ]);
  return {
    tenant: publicTenant(stored.tenant),
    stats: statsView(perDay, days, `${window[0]}T00:00:00.000Z`),
    ramp: rampView(ramp, usedToday, now),
  };
}
