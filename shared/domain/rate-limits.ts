/**
 * API rate limits: THE place their numbers live (documented in docs/api.md, "Rate limits").
 *
 * Fixed windows aligned to the epoch (a window of `windowSeconds` starts at every multiple of it), one
 * counter per account (for the dashboard's sign-in: per email address and per client IP), endpoint and
 * window, enforced by DynamoDB with a conditional ADD (shared/adapters/store/rate-limits.ts), so concurrent
 * requests at the edge never exceed `limit` per window.
 *
 * `GET /emails` (listing): 10 requests per second per account. Why these numbers:
 * - Resend allows 2 requests per second per team across its whole API (raised on request) and reports
 *   it with these same headers (IETF draft `ratelimit-*`, `retry-after` in seconds); Postmark publishes
 *   no fixed request rate and answers 429 when throttling. Their users page through the email log
 *   interactively or sync it from a job: 10/s is five times Resend's default, so a client written for
 *   Resend is never throttled here, while a runaway loop cannot turn the listing (up to 100 full email
 *   items per page, up to 1 MB read from the index) into an unbounded read load on the table.
 * - A 1-second window keeps the counter cheap (one small item per active second, expired by TTL) and
 *   `Retry-After` short (1 s): a client that overshoots waits at most one second, not a minute. The known
 *   cost of fixed windows, up to 2x `limit` across a window boundary, is acceptable at this size.
 */
import { PLANS, type PlanName } from './accounts/plans';

export interface RateLimit {
  /** Requests allowed per window. */
  limit: number;
  /** Window length in seconds (windows are aligned to multiples of it since the epoch). */
  windowSeconds: number;
}

export const RATE_LIMITS = {
  /** GET /emails */
  listEmails: { limit: 10, windowSeconds: 1 },
  /** POST /migrations without cursor (dry runs included): spec, Limits. */
  newImports: { limit: 10, windowSeconds: 3600 },
  /** POST /migrations with cursor: spec, Limits. */
  importContinuations: { limit: 300, windowSeconds: 3600 },
  /**
   * POST /dashboard/sign-in, per email address (known or not): 10 attempts per 15 minutes. Online
   * guessing of one user's password is bounded to 960 tries a day; a person mistyping is never near it.
   * Every attempt counts (a conditional ADD before the password is checked, so parallel guesses cannot
   * overshoot); the cost is that someone can lock an address out for up to 15 minutes (docs/dashboard.md).
   */
  signInPerEmail: { limit: 10, windowSeconds: 900 },
  /** POST /dashboard/sign-in, per client IP: 30 attempts per 15 minutes (one address guessing many users' passwords). */
  signInPerIp: { limit: 30, windowSeconds: 900 },
  /**
   * GET /dashboard/sign-in/oidc, per client IP: 60 flows started per 15 minutes (each writes a 10-minute flow
   * item; a person needs one per sign-in, the callback then counts as signInPerIp).
   */
  oidcStartPerIp: { limit: 60, windowSeconds: 900 },
} as const satisfies Record<string, RateLimit>;

export type RateLimitName = keyof typeof RATE_LIMITS;

/**
 * POST /validations and /validations/batch: the plan's `validationsPerHour` addresses per hour-long window
 * (each address of a batch counts, so a batch is no way around it), per account. Counted by the use case
 * (shared/usecases/address-validation/), which knows how many addresses a request holds; 429 rate_limited with
 * Retry-After as every limit. An hour, not a second: the limit bounds a volume, not a burst.
 */
export const VALIDATIONS_LIMIT_NAME = 'validations';

export function validationRateLimit(plan: PlanName): RateLimit {
  return { limit: PLANS[plan].validationsPerHour, windowSeconds: 3600 };
}

/** The window containing `nowMs`: its start (epoch seconds) and end (epoch seconds, exclusive). */
export function windowOf(rule: RateLimit, nowMs: number): { start: number; end: number } {
  const start = Math.floor(nowMs / 1000 / rule.windowSeconds) * rule.windowSeconds;
  return { start, end: start + rule.windowSeconds };
}

/** Whole seconds until the window containing `nowMs` ends (at least 1): `ratelimit-reset` and `Retry-After`. */
export function secondsUntilReset(rule: RateLimit, nowMs: number): number {
  return Math.max(1, Math.ceil(windowOf(rule, nowMs).end - nowMs / 1000));
}
