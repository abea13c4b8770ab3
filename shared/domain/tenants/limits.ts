/**
 * A tenant's daily caps as usage reservations, taken in the same transaction that accepts the email
 * (sharded capped counters, as the plan's: concurrent sends never overshoot, no hot item):
 *   - its ramp: recipients per UTC day in the send's stream (`TENANT:<id>:transactional|product`), capped
 *     while the ramp is active and still counted (uncapped) after, for used_today and the stats;
 *   - its `daily_limit`: recipients per UTC day, both streams together (`TENANT:<id>:all`).
 * The account's own reservations are taken in the same transaction: the tighter limit wins.
 */
import type { UsageReservation, UsageScope } from '../accounts/limits';
import { AppError } from '../errors';
import { nextUtcMidnight, rampLimits, utcDay, type RampState, type RampStream } from './ramp';
import type { Tenant } from './tenant';

export type TenantCounter = RampStream | 'all';

export function tenantScope(tenantId: string, counter: TenantCounter): UsageScope {
  return `TENANT:${tenantId}:${counter}`;
}

/** The tenant and counter of a tenant scope, or null for the account's scopes. */
export function parseTenantScope(scope: string): { tenantId: string; counter: TenantCounter } | null {
  const match = /^TENANT:(.+):(transactional|product|all)$/.exec(scope);
  return match ? { tenantId: match[1]!, counter: match[2] as TenantCounter } : null;
}

export function tenantReservations(
  tenant: Pick<Tenant, 'id' | 'daily_limit'>,
  ramp: RampState,
  stream: RampStream,
  now: Date,
): UsageReservation[] {
  const day = utcDay(now);
  const resetsAt = nextUtcMidnight(now);
  const base = {
    period: 'DAY' as const,
    periodValue: day,
    resetsAt: resetsAt.toISOString(),
    expiresAt: Math.floor(resetsAt.getTime() / 1000) + 35 * 86_400,
  };
  const reservations: UsageReservation[] = [];
  const limits = rampLimits(ramp.stage);
  reservations.push({ ...base, scope: tenantScope(tenant.id, stream), limit: limits ? limits[stream] : null });
  if (tenant.daily_limit !== null) reservations.push({ ...base, scope: tenantScope(tenant.id, 'all'), limit: tenant.daily_limit });
  return reservations;
}

/** 429 daily_ramp_limit with every detail field of the spec; nothing is sent, other tenants are unaffected. */
export function dailyRampLimitError(
  tenant: Pick<Tenant, 'external_id'>,
  ramp: RampState,
  stream: RampStream,
  reservation: Pick<UsageReservation, 'scope' | 'limit' | 'resetsAt'>,
  usedToday: number | undefined,
  recipients: number,
): AppError {
  const counter = parseTenantScope(reservation.scope)?.counter;
  const byDailyLimit = counter === 'all';
  const what = byDailyLimit
    ? `daily_limit of ${reservation.limit} recipients`
    : `sending ramp (stage ${ramp.stage}: ${reservation.limit} ${stream} recipients a day)`;
  return new AppError(
    429,
    'daily_ramp_limit',
    `Tenant ${tenant.external_id} would exceed its ${what}; it resets at ${reservation.resetsAt}.`,
    {
      details: {
        tenant: tenant.external_id,
        stream,
        daily_limit: reservation.limit,
        ...(usedToday === undefined ? {} : { used_today: usedToday }),
        recipients,
        ramp_stage: ramp.stage,
        resets_at: reservation.resetsAt,
        limited_by: byDailyLimit ? 'daily_limit' : 'ramp',
      },
      hint: byDailyLimit
        ? 'Raise the tenant daily_limit (PATCH /tenants/{tenant}) or send the rest after the reset.'
        : 'The ramp doubles after each day the tenant uses at least half of it with low bounces and complaints; send the rest after the reset.',
    },
  );
}
