/**
 * Which accounts have a webhook endpoint at all: the account's endpoint counter (COUNTER#WEBHOOKS, written in the
 * same transaction as each endpoint's creation and deletion, so it is exact), read strongly consistently for
 * several accounts in one BatchGetItem and kept `cacheMs` per process (HOT_LOOKUPS_CACHE_MS: 1 s by default, 0 on
 * the local cloud: docs/reference/caches.md). The event publisher asks it so that an account without endpoints
 * sends nothing to the webhook events queue (shared/usecases/webhooks/subscribed-events.ts).
 */
import { TtlCache } from '../../lib/ttl-cache';
import { batchGetItems } from './batch-get';
import { keys } from './keys';
import type { Table } from './table';
import { WEBHOOKS_COUNTER } from './webhooks';

export class WebhookPresence {
  private readonly cache: TtlCache<string, boolean>;

  constructor(
    private readonly table: Table,
    cacheMs: number,
  ) {
    this.cache = new TtlCache(cacheMs);
  }

  /** The accounts among `accountIds` with at least one endpoint (enabled or not). */
  async accountsWithEndpoints(accountIds: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    // Each account not known within the bound, by its counter's partition key.
    const unknown = new Map<string, string>();
    for (const id of new Set(accountIds)) {
      const known = this.cache.get(id);
      if (known === undefined) unknown.set(keys.counter(id, WEBHOOKS_COUNTER).PK, id);
      else if (known) found.add(id);
    }
    if (unknown.size === 0) return found;
    const items = await batchGetItems(
      this.table,
      [...unknown.values()].map((id) => keys.counter(id, WEBHOOKS_COUNTER)),
      { consistentRead: true, projection: ['PK', 'count'] },
    );
    const withEndpoints = new Set(items.filter((item) => Number(item.count ?? 0) > 0).map((item) => unknown.get(String(item.PK))));
    for (const id of unknown.values()) {
      const has = withEndpoints.has(id);
      this.cache.set(id, has);
      if (has) found.add(id);
    }
    return found;
  }
}
