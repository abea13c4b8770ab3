/** Which of its account's (and tenant's) listing shards an email's index entry lives under (./email-listing.ts). */
import { createHash } from 'node:crypto';

/**
 * Shards of each account's and tenant's email index: 16 partitions take 16,000 write units a second, about
 * 2,000 plain sends or 1,300 tenant sends a second today (8 and 12 index write units per email).
 */
export const EMAIL_INDEX_SHARDS = 16;

/** The shard an email's index entry lives under: from its id, so every write of the email names the same one. */
export function emailIndexShard(emailId: string, shards = EMAIL_INDEX_SHARDS): number {
  return createHash('sha256').update(emailId).digest().readUInt32BE(0) % shards;
}
