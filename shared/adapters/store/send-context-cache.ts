/**
 * The send context's shared items kept for a moment, per process (docs/architecture.md, "Caches and their
 * staleness bounds"): the API key or SMTP credential, the account, the sender domain's claim, and the tenant
 * items and id aliases a send reads. Every send of an account reads the same few items, and DynamoDB serves
 * one item at most 3,000 strongly consistent reads a second (its partition's), so without this one account
 * could not send faster than that (docs/benchmarks.md, "The partition model"). With it, each process reads
 * each of them at most once per `ttlMs`, whatever its send rate.
 *
 * Suppressions, category opt-outs and idempotency records are never kept: they are read in every send's
 * batch. An item found absent is kept too (a domain nobody claimed), for as long.
 *
 * The staleness bound is `ttlMs` (SEND_CONTEXT_CACHE_MS, 1 s by default; 0 keeps nothing): a key revoked, an
 * account suspended, a domain deleted or a tenant paused may still be used by a warm process for that long.
 */
import { BoundedMap } from '../../lib/bounded-map';

/** Items kept, at most (the oldest dropped first). */
const MAX_ENTRIES = 10_000;

export class SendContextCache {
  private readonly entries = new BoundedMap<string, { item: Record<string, unknown> | null; until: number }>(MAX_ENTRIES);

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The item as read at most `ttlMs` ago (null: it was absent), or undefined when it must be read. */
  get(id: string): Record<string, unknown> | null | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.item;
    this.entries.delete(id);
    return undefined;
  }

  /** Keeps what a read found for `id` (null: absent). Nothing is kept when `ttlMs` is 0. */
  set(id: string, item: Record<string, unknown> | null): void {
    if (this.ttlMs <= 0) return;
    this.entries.set(id, { item, until: this.now() + this.ttlMs });
  }
}
