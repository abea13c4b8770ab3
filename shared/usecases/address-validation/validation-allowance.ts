/**
 * The plan's hourly allowance of validated addresses (docs/deliverability.md, "Address validation",
 * Limits): POST /validations and its batch, the dashboard's page and a send's `validate: true` count each
 * address they look up, all at once before any lookup, with one conditional ADD (never over the allowance
 * under concurrency); past it 429 rate_limited with Retry-After.
 */
import { RateLimitedError } from '../../domain/errors';
import { secondsUntilReset, validationRateLimit, VALIDATIONS_LIMIT_NAME } from '../../domain/rate-limits';
import type { Clock } from '../../ports/clock';
import type { RateLimitRepository } from '../../adapters/store/rate-limits';
import type { Principal } from '../access/principal';

export interface ValidationAllowanceDeps {
  rateLimits: Pick<RateLimitRepository, 'hit'>;
  clock: Clock;
}

export async function countValidatedAddresses(deps: ValidationAllowanceDeps, principal: Principal, count: number): Promise<void> {
  const rule = validationRateLimit(principal.account.plan);
  const nowMs = deps.clock.now().getTime();
  const decision = await deps.rateLimits.hit(principal.account.id, VALIDATIONS_LIMIT_NAME, rule, nowMs, count);
  if (!decision.allowed)
    throw new RateLimitedError(rule.limit, rule.windowSeconds, secondsUntilReset(rule, nowMs), 'addresses for this account (its plan)');
}
