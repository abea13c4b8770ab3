/**
 * A tenant's ramp state for today: brought forward on the tenant's first send (or stats call) of a UTC
 * day from the figures of the last day it sent on (shared/domain/tenants/ramp.ts), and written with a
 * condition on the day it was evaluated for, so concurrent first sends move it once.
 */
import { tenantScope } from '../../domain/tenants/limits';
import { advanceRamp, dayToEvaluate, rampLimits, utcDay, RAMP_STREAMS, type RampState, type RampStream } from '../../domain/tenants/ramp';
import type { TenantStatsRepository } from '../../adapters/store/tenant-stats';
import type { StoredTenant, TenantRepository } from '../../adapters/store/tenants';
import type { UsageLedger } from '../../adapters/store/usage';

export interface TenantRampDeps {
  tenants: Pick<TenantRepository, 'advanceRamp' | 'find'>;
  tenantStats: Pick<TenantStatsRepository, 'read'>;
  usage: Pick<UsageLedger, 'current'>;
}

/** Recipients counted for the tenant on `day` per stream, at the ramp stage in force that day. */
export async function rampUsage(
  deps: Pick<TenantRampDeps, 'usage'>,
  accountId: string,
  tenantId: string,
  stage: number,
  day: string,
): Promise<Record<RampStream, number>> {
  const limits = rampLimits(stage);
  const [transactional, product] = await Promise.all(
    RAMP_STREAMS.map((stream) =>
      deps.usage.current(accountId, {
        scope: tenantScope(tenantId, stream),
        period: 'DAY',
        periodValue: day,
        limit: limits ? limits[stream] : null,
      }),
    ),
  );
  return { transactional: transactional!, product: product! };
}

export async function rampForToday(deps: TenantRampDeps, stored: StoredTenant, now: Date): Promise<RampState> {
  const today = utcDay(now);
  const day = dayToEvaluate(stored.ramp, today);
  if (day === null) return stored.ramp.day >= today ? stored.ramp : { stage: stored.ramp.stage, day: today };
  const { tenant } = stored;
  const [[figures], used] = await Promise.all([
    deps.tenantStats.read(tenant.id, [day]),
    rampUsage(deps, tenant.account_id, tenant.id, stored.ramp.stage, day),
  ]);
  const next = advanceRamp(stored.ramp, today, {
    day,
    used,
    sent: figures!.sent,
    bounced: figures!.bounced,
    complained: figures!.complained,
  });
  if (await deps.tenants.advanceRamp(tenant, stored.ramp, next)) return next;
  // Another send evaluated the day first: its state is the one in force.
  return (await deps.tenants.find(tenant.account_id, tenant.external_id))?.ramp ?? next;
}
