/**
 * What every step of an automation's runs reads alike, kept for HOT_LOOKUPS_CACHE_MS per process (docs/reference/caches.md): the
 * automation (is it still active?) and the account the runs send for.
 * Every step of one automation reads the same item, which DynamoDB serves at most 3,000 strongly consistent reads a
 * second; kept a second, each worker process reads each at most once a second. A pause or a deletion stops the
 * runs at their next step within that second (at once on the local cloud, which keeps nothing).
 */
import type { Account } from '#shared/domain/accounts/account';
import type { Automation } from '#shared/domain/automations/automation';
import { TtlCache } from '#shared/lib/ttl-cache';
import type { RunStepDeps } from './run-step';

/** At most this many automations and accounts kept per process. */
const MAX_ENTRIES = 1_000;

async function through<V>(cache: TtlCache<string, V>, key: string, read: () => Promise<V>): Promise<V> {
  const kept = cache.get(key);
  if (kept !== undefined) return kept;
  const value = await read();
  cache.set(key, value);
  return value;
}

/** The steps' reads of `deps`, each kept `ttlMs` (0: read every time). */
export function stepLookups(
  deps: Pick<RunStepDeps, 'automations' | 'accounts'>,
  ttlMs: number,
  now?: () => number,
): Pick<RunStepDeps, 'automations' | 'accounts'> {
  const automations = new TtlCache<string, Automation | null>(ttlMs, MAX_ENTRIES, now);
  const accounts = new TtlCache<string, Account | null>(ttlMs, MAX_ENTRIES, now);
  return {
    automations: {
      get: (accountId, automationId) =>
        through(automations, `${accountId}#${automationId}`, () => deps.automations.get(accountId, automationId)),
    },
    accounts: { get: (accountId) => through(accounts, accountId, () => deps.accounts.get(accountId)) },
  };
}
