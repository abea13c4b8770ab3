/**
 * The faults a seeded account can be given, applied before its request reaches the fake provider:
 * an outage (503 on everything), a burst of 429s after N requests in the provider's own rate-limit
 * shape, and paths its key may not read (answered as that provider answers a missing permission).
 */
import type { Account } from './state';
import type { FakeProvider, Reply } from './types';

export const DEFAULT_RETRY_AFTER_SECONDS = 60;

/** Counts the request against the account and answers the fault it triggers, if any. */
export function faultReply(account: Account, fake: FakeProvider<unknown>, path: string, nowMs: number): Reply | null {
  const faults = account.faults;
  account.served += 1;
  if (faults.unavailable) return fake.unavailable();
  const after = faults.rate_limit_after_requests;
  if (after !== undefined) {
    const count = faults.rate_limit_count ?? 1;
    if (account.served > after && account.served <= after + count) {
      return fake.rateLimited(faults.retry_after_seconds ?? DEFAULT_RETRY_AFTER_SECONDS, nowMs);
    }
  }
  if (faults.forbidden_paths?.some((prefix) => underPrefix(path, prefix))) return fake.forbidden(path);
  return null;
}

/** /v3/asm covers /v3/asm and /v3/asm/groups, not /v3/asmx. */
function underPrefix(path: string, prefix: string): boolean {
  const bare = prefix.replace(/\/+$/, '');
  return path === bare || path.startsWith(`${bare}/`);
}
