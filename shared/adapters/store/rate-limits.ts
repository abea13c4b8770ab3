/**
 * Fixed-window request counters for API rate limits (numbers in shared/domain/rate-limits.ts).
 *
 * One item per (subject, limit, window), the subject an account id, or for limits without an account (the
 * dashboard's sign-in) `email:<sha256>` or `ip:<address>`: `ADD #count :one` with the condition `#count < :limit` (or
 * no count yet), so DynamoDB admits at most `limit` requests per window however many race: no
 * read-then-write. The item expires by TTL a few windows after its own ended (TTL deletion is lazy;
 * an expired window is never read again anyway, since the key names the window).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { windowOf, type RateLimit } from '../../domain/rate-limits';
import { keys } from './keys';
import { isConditionFailure, type Table } from './table';

/** How long after its window ends a counter item lives (seconds). */
const TTL_AFTER_WINDOW_SECONDS = 60;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in this window after this one (0 when refused). */
  remaining: number;
  /** End of the window (epoch seconds, exclusive). */
  resetAt: number;
}

export class RateLimitRepository {
  constructor(private readonly table: Table) {}

  /**
   * Counts one request of `subject` (an account id, or see above) against `rule` in the window containing
   * `nowMs`; `cost` units of it (a batch of addresses), all or none: refused when they do not all fit.
   */
  async hit(subject: string, name: string, rule: RateLimit, nowMs: number, cost = 1): Promise<RateLimitDecision> {
    const window = windowOf(rule, nowMs);
    if (cost > rule.limit) return { allowed: false, limit: rule.limit, remaining: 0, resetAt: window.end };
    try {
      const result = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.rateLimitWindow(subject, name, window.start),
          UpdateExpression: 'ADD #count :cost SET #ttl = if_not_exists(#ttl, :ttl)',
          ConditionExpression: 'attribute_not_exists(#count) OR #count <= :room',
          ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':cost': cost, ':room': rule.limit - cost, ':ttl': window.end + TTL_AFTER_WINDOW_SECONDS },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      const count = Number(result.Attributes?.count ?? rule.limit);
      return { allowed: true, limit: rule.limit, remaining: Math.max(0, rule.limit - count), resetAt: window.end };
    } catch (error) {
      if (isConditionFailure(error)) return { allowed: false, limit: rule.limit, remaining: 0, resetAt: window.end };
      throw error;
    }
  }
}
