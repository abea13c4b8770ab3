/**
 * The send's capped and counted usage (docs/api.md, POST /emails, step 4): the account's counters (plan,
 * sandbox sender) and its tenant's (ramp, daily_limit), reserved in the accept step's transaction
 * (./accept-email.ts); the 429 a reached one answers (plan_limit for the account's, daily_ramp_limit for
 * the tenant's); and, for a send that looks its recipients up first (`validate: true`), the same refusal
 * read from the counters before any lookup (./validate-send.ts). The transaction still decides: a read
 * is only an early answer.
 */
import { planShardParts, shardCaps, usageReservations, type UsageReservation } from '../../domain/accounts/limits';
import type { AppError } from '../../domain/errors';
import { dailyRampLimitError, parseTenantScope, tenantReservations } from '../../domain/tenants/limits';
import { rampStreamOf, type RampState, type RampStream } from '../../domain/tenants/ramp';
import type { Tenant } from '../../domain/tenants/tenant';
import type { UsageLedger } from '../../adapters/store/usage';
import { rampForToday, type TenantRampDeps } from '../tenants/tenant-ramp';
import { limitError } from './policy';
import type { ResolvedSendContext } from './resolved-send-context';

/** A tenant send's limits of today: its ramp (brought forward on its first send of a UTC day) and daily_limit. */
interface TenantLimits {
  tenant: Tenant;
  ramp: RampState;
  stream: RampStream;
}

export interface SendLimits {
  /** Every counter the send counts in; those with a limit are capped. */
  reservations: UsageReservation[];
  tenant: TenantLimits | null;
}

export async function sendLimits(deps: TenantRampDeps, facts: ResolvedSendContext, sandbox: boolean, now: Date): Promise<SendLimits> {
  const tenant: TenantLimits | null = facts.tenant
    ? { tenant: facts.tenant.tenant, ramp: await rampForToday(deps, facts.tenant, now), stream: rampStreamOf(facts.category) }
    : null;
  return {
    reservations: [
      ...usageReservations(facts.principal.account.plan, sandbox, now),
      ...(tenant ? tenantReservations(tenant.tenant, tenant.ramp, tenant.stream, now) : []),
    ],
    tenant,
  };
}

/** The 429 of a reached counter: the tenant's daily_ramp_limit, or the account's plan_limit. */
export function limitReachedError(
  dashboardUrl: string,
  facts: ResolvedSendContext,
  limits: SendLimits,
  reservation: UsageReservation,
  used: number | undefined,
  count: number,
): AppError {
  if (limits.tenant && parseTenantScope(reservation.scope))
    return dailyRampLimitError(limits.tenant.tenant, limits.tenant.ramp, limits.tenant.stream, reservation, used, count);
  return limitError(facts.principal, reservation, used, count, dashboardUrl);
}

/**
 * The 429 the accept step would answer, read from the capped counters' shards now (one consistent read per
 * counter, in parallel): by the rule the store places reservations by (planShardParts), so no send is
 * refused here that the transaction would take.
 */
export async function refuseOverLimit(
  deps: { usage: Pick<UsageLedger, 'shardCounts'>; dashboardUrl: string },
  facts: ResolvedSendContext,
  limits: SendLimits,
  count: number,
): Promise<void> {
  const capped = limits.reservations.filter((reservation) => reservation.limit !== null);
  const counts = await Promise.all(capped.map((reservation) => deps.usage.shardCounts(facts.principal.account.id, reservation)));
  const full = capped.findIndex((reservation, i) => planShardParts(shardCaps(reservation.limit!), counts[i]!, count) === null);
  if (full < 0) return;
  throw limitReachedError(
    deps.dashboardUrl,
    facts,
    limits,
    capped[full]!,
    counts[full]!.reduce((sum, n) => sum + n, 0),
    count,
  );
}
