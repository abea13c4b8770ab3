/**
 * A ClientRequestToken (DynamoDB's TransactWriteItems: at most 36 characters) naming exactly these records
 * for this purpose: the same records always give the same token, so a write retried for them (a stream batch
 * delivered again) changes nothing twice within DynamoDB's 10-minute idempotency window.
 *
 * The purpose is part of it because several stream workers read the same records (the outbox relay's usage
 * counters, tenant-stats' day counters): without it, a batch whose records were the same for both gave both
 * transactions one token, and DynamoDB refused the second (IdempotentParameterMismatchException, "the same
 * token with other parameters") on every retry for 10 minutes, until the batch was given up.
 */
import { createHash } from 'node:crypto';

/**
 * What a token's transaction does: one name per writer of the same records. `stats` is the stats worker's
 * tenant, account and deployment counters in one transaction (before it, `tenant-stats` wrote the tenants'
 * alone: a new name, so a batch retried across the upgrade is not refused as the same token with other items).
 */
export type TokenPurpose = 'usage' | 'stats';

export function usageToken(purpose: TokenPurpose, eventIds: readonly string[]): string {
  return createHash('sha256')
    .update(`${purpose}\n${eventIds.join('\n')}`)
    .digest('base64url')
    .slice(0, 36);
}

/**
 * Which of `shards` items a transaction with this token writes: the same token, the same shard, so a retried
 * batch is the same transaction (the stream writers' sharded counters: usage, day stats).
 */
export function tokenShard(token: string, shards: number): number {
  return createHash('sha256').update(token).digest().readUInt32BE(0) % shards;
}
