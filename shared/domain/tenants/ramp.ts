/**
 * The tenant sending ramp (spec, Limits): a new tenant may send to 1,000 product and 3,000
 * transactional recipients per UTC day; the limits double after each day on which the tenant used at
 * least half of one stream's limit with bounces under 2% and complaints under 0.1% of that day's
 * sends. Limits reset at 00:00 UTC. After RAMP_LAST_STAGE the ramp is complete (no ramp limit; the
 * tenant's daily_limit and the account's limits still apply).
 *
 * Pure: the state (stage and the last day evaluated) lives on the tenant item, the day figures come from
 * the tenant's daily counters; the store applies a new stage with a condition on the day it evaluated.
 */
export const RAMP_STREAMS = ['transactional', 'product'] as const;
export type RampStream = (typeof RAMP_STREAMS)[number];

export const RAMP_START: Readonly<Record<RampStream, number>> = { transactional: 3_000, product: 1_000 };
/** Stage 1 starts at RAMP_START; stage 11 allows 1,024 times that; qualifying at stage 11 completes the ramp. */
export const RAMP_LAST_STAGE = 11;
/** A day qualifies below these rates (fractions of that day's sent recipients). */
export const RAMP_MAX_BOUNCE_RATE = 0.02;
export const RAMP_MAX_COMPLAINT_RATE = 0.001;

/** What the tenant item keeps about its ramp. */
export interface RampState {
  /** 1..RAMP_LAST_STAGE; RAMP_LAST_STAGE + 1 once complete. */
  stage: number;
  /** The UTC day (YYYY-MM-DD) up to which (exclusive) days were evaluated: the day the stage applies to. */
  day: string;
}

/** One UTC day of a tenant's sending, from its daily counters. */
export interface RampDay {
  day: string;
  used: Record<RampStream, number>;
  sent: number;
  bounced: number;
  complained: number;
}

/** Which ramp stream a send's category counts against: transactional, or product (product, newsletter). */
export function rampStreamOf(category: string): RampStream {
  return category === 'transactional' ? 'transactional' : 'product';
}

export function isRampComplete(stage: number): boolean {
  return stage > RAMP_LAST_STAGE;
}

/** The per-stream daily limits at a stage; null once the ramp is complete. */
export function rampLimits(stage: number): Record<RampStream, number> | null {
  if (isRampComplete(stage)) return null;
  const factor = 2 ** (Math.max(1, stage) - 1);
  return { transactional: RAMP_START.transactional * factor, product: RAMP_START.product * factor };
}

/** Whether a day moves the ramp on: half of one stream's limit used, rates under the thresholds. */
export function dayQualifies(day: RampDay, limits: Record<RampStream, number>): boolean {
  const usedHalf = RAMP_STREAMS.some((stream) => day.used[stream] * 2 >= limits[stream]);
  if (!usedHalf || day.sent === 0) return false;
  return day.bounced / day.sent < RAMP_MAX_BOUNCE_RATE && day.complained / day.sent < RAMP_MAX_COMPLAINT_RATE;
}

export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The `count` UTC days ending with `today`, oldest first. */
export function daysBack(today: string, count: number): string[] {
  const end = Date.parse(`${today}T00:00:00.000Z`);
  return Array.from({ length: count }, (_, i) => new Date(end - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

export function nextUtcMidnight(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}

/**
 * The state for `today`. The send path brings the state forward on the first send of each UTC day, so
 * `state.day` is the last day the tenant sent on (or its creation day), and no day between it and today
 * had sends: only that day's figures can move the stage, by one when it qualified. Unchanged when already
 * evaluated for today or later (a clock that went back never lowers a stage).
 */
export function advanceRamp(state: RampState, today: string, lastDay: RampDay | null): RampState {
  if (state.day >= today) return state;
  const limits = rampLimits(state.stage);
  const qualified = limits !== null && lastDay !== null && lastDay.day === state.day && dayQualifies(lastDay, limits);
  return { stage: qualified ? state.stage + 1 : state.stage, day: today };
}

/** The day whose figures `advanceRamp` needs, or null when there is nothing to evaluate. */
export function dayToEvaluate(state: RampState, today: string): string | null {
  return state.day < today && !isRampComplete(state.stage) ? state.day : null;
}

/** The spec's `ramp` object (GET /tenants/{tenant}/stats). */
export function rampView(state: RampState, usedToday: Record<RampStream, number>, now: Date) {
  const limits = rampLimits(state.stage);
  return {
    object: 'tenant_ramp' as const,
    active: limits !== null,
    stage: Math.min(state.stage, RAMP_LAST_STAGE),
    daily_limit: limits,
    used_today: { transactional: usedToday.transactional, product: usedToday.product },
    completed: limits === null,
    resets_at: nextUtcMidnight(now).toISOString(),
  };
}
