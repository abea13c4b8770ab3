import type { MiddlewareHandler } from 'hono';
import { RateLimitedError } from '#shared/domain/errors';
import { RATE_LIMITS, secondsUntilReset, type RateLimitName } from '#shared/domain/rate-limits';
import type { Clock } from '#shared/ports/clock';
import type { RateLimitRepository } from '#shared/adapters/store/rate-limits';
import type { ApiEnv } from '../env';

export const RATE_LIMIT_HEADERS = { limit: 'ratelimit-limit', remaining: 'ratelimit-remaining', reset: 'ratelimit-reset' } as const;

/**
 * Per-account rate limit of one route (numbers: RATE_LIMITS in shared/domain/rate-limits.ts). Counts the
 * request (after authentication: the account is the principal's), sets `ratelimit-limit`,
 * `ratelimit-remaining` and `ratelimit-reset` (seconds until the window ends) on every response of the
 * route, errors included, and refuses with 429 rate_limited and `Retry-After` once the window is used up.
 */
export function rateLimit(
  deps: { rateLimits: RateLimitRepository; clock: Clock },
  name: RateLimitName,
): MiddlewareHandler<ApiEnv> & { readonly rateLimit: RateLimitName } {
  const rule = RATE_LIMITS[name];
  const middleware: MiddlewareHandler<ApiEnv> = async (c, next) => {
    const nowMs = deps.clock.now().getTime();
    const decision = await deps.rateLimits.hit(c.get('principal').account.id, name, rule, nowMs);
    const reset = secondsUntilReset(rule, nowMs);
    c.header(RATE_LIMIT_HEADERS.limit, String(decision.limit));
    c.header(RATE_LIMIT_HEADERS.remaining, String(decision.remaining));
    c.header(RATE_LIMIT_HEADERS.reset, String(reset));
    if (!decision.allowed) throw new RateLimitedError(rule.limit, rule.windowSeconds, reset);
    await next();
  };
  // Named, so the OpenAPI document's rate-limited operations can be checked against the routes.
  return Object.assign(middleware, { rateLimit: name });
}
