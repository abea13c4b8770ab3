/**
 * The reputation brake's check (docs/deliverability.md, "Reputation guard"): the window's figures of the
 * deployment and of the candidates (the accounts and tenants whose bounces or complaints a stats batch just
 * counted), the pure policy (shared/domain/reputation/brake.ts), then each pause it calls for as a write
 * conditional on the account or tenant still being active: a manual pause is never overwritten, concurrent
 * checks pause once, and a unit already paused counts as stopped. The pauses become account.paused /
 * tenant.paused through the table's stream (tenant-events).
 *
 * Reads: one BatchGetItem of the deployment's 32 shard items (2 days x 16), one per candidate (its 2 days).
 */
import { BRAKE_WINDOW_DAYS, planBrake, type BrakePause, type BrakeSettings } from '../../domain/reputation/brake';
import { figuresView, sumFigures } from '../../domain/reputation/figures';
import type { AccountPauseFigures } from '../../domain/accounts/account';
import { daysBack, utcDay } from '../../domain/tenants/ramp';
import { mapBounded } from '../../lib/concurrency';
import type { AccountStatsRepository } from '../../adapters/store/account-stats';
import type { TenantStatsRepository } from '../../adapters/store/tenant-stats';
import type { AccountRepository } from '../../adapters/store/accounts';
import type { TenantRepository } from '../../adapters/store/tenants';

export interface BrakeDeps {
  accountStats: Pick<AccountStatsRepository, 'readSplit' | 'readDeployment'>;
  tenantStats: Pick<TenantStatsRepository, 'read'>;
  accounts: Pick<AccountRepository, 'pauseAutomatically'>;
  tenants: Pick<TenantRepository, 'pauseAutomatically'>;
  settings: BrakeSettings;
}

export interface BrakeCandidates {
  accounts: string[];
  tenants: { id: string; accountId: string }[];
}

/** A pause the brake made (or found made: `paused` false when the unit was no longer active). */
export interface BrakeOutcome {
  kind: 'account' | 'tenant';
  id: string;
  rule: BrakePause['rule'];
  metric: BrakePause['metric'];
  paused: boolean;
}

/** What the account keeps of the decision (its pause_figures; the account.paused event and the dashboard show them). */
export function pauseFiguresOf(pause: BrakePause): AccountPauseFigures {
  return {
    rule: pause.rule,
    metric: pause.metric,
    threshold: pause.threshold,
    window_days: BRAKE_WINDOW_DAYS,
    account: figuresView(pause.figures),
    deployment: figuresView(pause.deployment),
  };
}

export async function applyReputationBrake(deps: BrakeDeps, candidates: BrakeCandidates, now: Date): Promise<BrakeOutcome[]> {
  const window = daysBack(utcDay(now), BRAKE_WINDOW_DAYS);
  const [deployment, accounts, tenants] = await Promise.all([
    deps.accountStats.readDeployment(window).then(sumFigures),
    mapBounded(candidates.accounts, 8, async (id) => {
      const days = await deps.accountStats.readSplit(id, window);
      return { id, figures: sumFigures(days.map((day) => day.all)), tenantFigures: sumFigures(days.map((day) => day.tenants)) };
    }),
    mapBounded(candidates.tenants, 8, async ({ id, accountId }) => ({
      id,
      accountId,
      figures: sumFigures(await deps.tenantStats.read(id, window)),
    })),
  ]);
  const pauses = planBrake({ deployment, accounts, tenants }, deps.settings);
  const outcomes: BrakeOutcome[] = [];
  const at = now.toISOString();
  for (const pause of pauses) {
    const paused =
      pause.unit.kind === 'account'
        ? await deps.accounts.pauseAutomatically(pause.unit.id, { reason: pause.reason, figures: pauseFiguresOf(pause) }, at)
        : await deps.tenants.pauseAutomatically(pause.unit.id, pause.reason, at);
    outcomes.push({ kind: pause.unit.kind, id: pause.unit.id, rule: pause.rule, metric: pause.metric, paused });
  }
  return outcomes;
}
