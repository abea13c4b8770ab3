/**
 * The reputation brake (docs/deliverability.md, "Reputation guard"): every account and tenant of a deployment
 * sends through one SES account, which AWS puts under review at a 5% bounce or 0.1% complaint rate and may
 * pause at 10% or 0.5% (AWS_REVIEW, below). The brake pauses the accounts and tenants driving the
 * deployment's rate before it gets there. Pure: figures in, the pauses to make out.
 *
 * Two rules, over the window (today and yesterday, UTC, by acceptance day, as the tenants' automatic pause):
 *  1. review rate: an account whose own rate is over AWS's review rate with enough volume (the tenants'
 *     minimums: 200 sent for bounces, 1,000 for complaints) is paused whatever the deployment's rate. Its own
 *     rate is that of its emails of no tenant: each tenant has the same rule of its own (the tenants'
 *     automatic pause, shared/domain/tenants/auto-pause.ts), so one tenant's bounces pause that tenant, not
 *     its account;
 *  2. deployment brake: when the deployment's rate nears AWS's (at or over `bounceRate` / `complaintRate`,
 *     with at least `deploymentMinSent` sent), the units whose own rate is over that threshold (with at
 *     least `offenderMinSent` sent) are paused, the largest number of bad events first, until the
 *     deployment's projected rate (its figures without the paused units', which send no more) is back
 *     under the threshold. A unit is a tenant (its own emails) or an account (its emails of no tenant:
 *     its tenants are units of their own); on a tie a tenant goes first (it stops less mail). Pausing an
 *     account stops its tenants too. When the deployment's rate is critical (half way from the brake to
 *     AWS's review rate: 4.5%, 0.09% by default) and the units with the volume were not enough, units
 *     under `offenderMinSent` whose rate is over the threshold are paused too (a swarm of small senders).
 * The candidates are the units whose bounces or complaints a stats batch just counted (every unit that
 * bounces is one in the batch that counts it); a healthy unit (its own rate at or under the threshold) is
 * never paused by the brake.
 */
import { AUTO_PAUSE } from '../tenants/auto-pause';
import { badOf, percent, rateOf, sumFigures, withoutFigures, type Figures, type Metric } from './figures';

/** AWS's thresholds for the SES account (Amazon SES sending review process FAQs): review, and a possible pause. */
export const AWS_REVIEW = { bounceRate: 0.05, complaintRate: 0.001 } as const;
export const AWS_PAUSE = { bounceRate: 0.1, complaintRate: 0.005 } as const;

export interface BrakeSettings {
  /** The deployment's bounce rate at which the brake acts ("nearing" AWS's 5%). */
  bounceRate: number;
  /** The deployment's complaint rate at which the brake acts ("nearing" AWS's 0.1%). */
  complaintRate: number;
  /** Emails the deployment must have sent in the window before its rate means anything. */
  deploymentMinSent: number;
  /** Emails a unit must have sent in the window before the brake may pause it. */
  offenderMinSent: number;
}

/** Defaults (the settings REPUTATION_*: shared/config/settings.ts): a fifth under AWS's review rates. */
export const DEFAULT_BRAKE: BrakeSettings = { bounceRate: 0.04, complaintRate: 0.0008, deploymentMinSent: 1000, offenderMinSent: 100 };

/** Days of counters the brake reads: today and yesterday (UTC), as the tenants' automatic pause. */
export const BRAKE_WINDOW_DAYS = AUTO_PAUSE.windowDays;

/**
 * Settings as given (numbers, NaN when unreadable) made safe: a threshold must be a rate above 0 and under
 * AWS's review rate, a minimum a whole number of at least 1; anything else takes its default. Returns the
 * settings and the names of the ones replaced (for a log line).
 */
export function brakeSettingsOf(given: Partial<BrakeSettings>): { settings: BrakeSettings; replaced: (keyof BrakeSettings)[] } {
  const replaced: (keyof BrakeSettings)[] = [];
  const pick = <K extends keyof BrakeSettings>(name: K, ok: (value: number) => boolean): number => {
    const value = given[name];
    if (value === undefined) return DEFAULT_BRAKE[name];
    if (ok(value)) return value;
    replaced.push(name);
    return DEFAULT_BRAKE[name];
  };
  const minimum = (value: number) => Number.isInteger(value) && value >= 1;
  return {
    settings: {
      bounceRate: pick('bounceRate', (value) => value > 0 && value < AWS_REVIEW.bounceRate),
      complaintRate: pick('complaintRate', (value) => value > 0 && value < AWS_REVIEW.complaintRate),
      deploymentMinSent: pick('deploymentMinSent', minimum),
      offenderMinSent: pick('offenderMinSent', minimum),
    },
    replaced,
  };
}

/** An account the brake looks at: its window figures (every email) and the part of them its tenants sent. */
export interface AccountCandidate {
  id: string;
  figures: Figures;
  tenantFigures: Figures;
}

/** A tenant the brake looks at: its window figures. */
export interface TenantCandidate {
  id: string;
  accountId: string;
  figures: Figures;
}

export interface BrakeInput {
  deployment: Figures;
  accounts: readonly AccountCandidate[];
  tenants: readonly TenantCandidate[];
}

export type BrakeUnit = { kind: 'account'; id: string } | { kind: 'tenant'; id: string; accountId: string };

/** One pause to make, with the figures that decided it (the account's pause keeps them). */
export interface BrakePause {
  unit: BrakeUnit;
  rule: 'review_rate' | 'deployment_brake';
  metric: Metric;
  /** The figures the unit was judged on (an account by the deployment brake: its emails of no tenant). */
  figures: Figures;
  /** The deployment's window figures at the decision. */
  deployment: Figures;
  /** The threshold crossed (AWS's review rate, or the brake's). */
  threshold: number;
  /** For people: the unit's paused_reason. */
  reason: string;
}

const METRICS: readonly Metric[] = ['bounce', 'complaint'];
const NOUN: Record<Metric, string> = { bounce: 'bounce', complaint: 'complaint' };

function brakeThreshold(settings: BrakeSettings, metric: Metric): number {
  return metric === 'bounce' ? settings.bounceRate : settings.complaintRate;
}

function reviewRate(metric: Metric): number {
  return metric === 'bounce' ? AWS_REVIEW.bounceRate : AWS_REVIEW.complaintRate;
}

/** Rule 1: the metric an account's own figures are over AWS's review rate on, with the tenants' minimum volumes. */
function overReviewRate(figures: Figures): Metric | null {
  if (figures.sent >= AUTO_PAUSE.bounceMinSent && rateOf(figures, 'bounce') > AWS_REVIEW.bounceRate) return 'bounce';
  if (figures.sent >= AUTO_PAUSE.complaintMinSent && rateOf(figures, 'complaint') > AWS_REVIEW.complaintRate) return 'complaint';
  return null;
}

const unitKey = (unit: BrakeUnit) => `${unit.kind}:${unit.id}`;
const sentence = (figures: Figures, metric: Metric) =>
  `${NOUN[metric]} rate ${percent(rateOf(figures, metric))} over ${figures.sent} emails sent in the last ${BRAKE_WINDOW_DAYS} UTC days`;

/** The deployment's figures without those of the units paused so far (a paused account's tenants included once). */
function projected(input: BrakeInput, pauses: readonly BrakePause[]): Figures {
  const pausedAccounts = new Set(pauses.filter((pause) => pause.unit.kind === 'account').map((pause) => pause.unit.id));
  const gone: Figures[] = [];
  for (const account of input.accounts) if (pausedAccounts.has(account.id)) gone.push(account.figures);
  for (const pause of pauses) if (pause.unit.kind === 'tenant' && !pausedAccounts.has(pause.unit.accountId)) gone.push(pause.figures);
  return withoutFigures(input.deployment, sumFigures(gone));
}

/** The pauses decided so far, in order, and which units they are. */
class BrakePlan {
  readonly pauses: BrakePause[] = [];
  private readonly decided = new Set<string>();

  decide(pause: BrakePause): void {
    this.pauses.push(pause);
    this.decided.add(unitKey(pause.unit));
  }

  has(key: string): boolean {
    return this.decided.has(key);
  }
}

/** Rule 1: every account whose own figures (its emails of no tenant) are over AWS's review rate. */
function planReviewRatePauses(input: BrakeInput, plan: BrakePlan): void {
  for (const account of input.accounts) {
    const own = withoutFigures(account.figures, account.tenantFigures);
    const metric = overReviewRate(own);
    if (!metric) continue;
    const ofNoTenant = account.tenantFigures.sent > 0 ? ' (its emails of no tenant)' : '';
    plan.decide({
      unit: { kind: 'account', id: account.id },
      rule: 'review_rate',
      metric,
      figures: own,
      deployment: input.deployment,
      threshold: reviewRate(metric),
      reason: `Account ${sentence(own, metric)}${ofNoTenant}, above AWS's ${percent(reviewRate(metric))} review rate.`,
    });
  }
}

/**
 * The units over the brake's threshold on `metric`, in the order to pause them: those with the minimum volume
 * first, then (critical: half way from the brake to AWS's review rate) those under it; the worst first.
 */
function brakeCandidates(
  input: BrakeInput,
  settings: BrakeSettings,
  metric: Metric,
  threshold: number,
  plan: BrakePlan,
): { unit: BrakeUnit; figures: Figures }[] {
  // A swarm of small senders can get the deployment reviewed as surely as one large one.
  const critical = rateOf(input.deployment, metric) >= (threshold + reviewRate(metric)) / 2;
  const minimum = (figures: Figures) => (figures.sent >= settings.offenderMinSent ? 0 : critical ? 1 : 2);
  return [
    ...input.tenants.map((tenant) => ({
      unit: { kind: 'tenant', id: tenant.id, accountId: tenant.accountId } as BrakeUnit,
      figures: tenant.figures,
    })),
    ...input.accounts.map((account) => ({
      unit: { kind: 'account', id: account.id } as BrakeUnit,
      figures: withoutFigures(account.figures, account.tenantFigures),
    })),
  ]
    .filter(({ unit, figures }) => !plan.has(unitKey(unit)) && minimum(figures) < 2 && rateOf(figures, metric) > threshold)
    .sort(
      (a, b) =>
        minimum(a.figures) - minimum(b.figures) ||
        badOf(b.figures, metric) - badOf(a.figures, metric) ||
        (a.unit.kind === b.unit.kind ? a.unit.id.localeCompare(b.unit.id) : a.unit.kind === 'tenant' ? -1 : 1),
    );
}

/** Rule 2 on `metric`: while the deployment (without the units paused so far) is at or over the brake, the next candidate. */
function planDeploymentBrake(input: BrakeInput, settings: BrakeSettings, metric: Metric, plan: BrakePlan): void {
  const threshold = brakeThreshold(settings, metric);
  const { deployment } = input;
  if (deployment.sent < settings.deploymentMinSent || rateOf(deployment, metric) < threshold) return;
  for (const { unit, figures } of brakeCandidates(input, settings, metric, threshold, plan)) {
    if (rateOf(projected(input, plan.pauses), metric) < threshold) break;
    if (unit.kind === 'tenant' && plan.has(`account:${unit.accountId}`)) continue;
    const ofNoTenant = unit.kind === 'account' && (input.accounts.find((account) => account.id === unit.id)?.tenantFigures.sent ?? 0) > 0;
    const own = `this ${unit.kind}'s own ${sentence(figures, metric)}${ofNoTenant ? ' (its emails of no tenant)' : ''}`;
    plan.decide({
      unit,
      rule: 'deployment_brake',
      metric,
      figures,
      deployment,
      threshold,
      reason: `Reputation brake: the deployment's ${sentence(deployment, metric)}, at or over the brake's ${percent(threshold)} (AWS reviews at ${percent(reviewRate(metric))}); ${own}, ${badOf(figures, metric)} of the deployment's ${badOf(deployment, metric)} ${metric === 'bounce' ? 'bounces' : 'complaints'}.`,
    });
  }
}

/**
 * The pauses the figures call for, in the order to make them (empty: nothing to do). Each unit at most
 * once; the repository's conditional pause decides whether it still is active.
 */
export function planBrake(input: BrakeInput, settings: BrakeSettings): BrakePause[] {
  const plan = new BrakePlan();
  planReviewRatePauses(input, plan);
  for (const metric of METRICS) planDeploymentBrake(input, settings, metric, plan);
  return plan.pauses;
}
