/**
 * Values kept for `ttlMs` after they were read, at most `max` of them (the oldest dropped first): the
 * per-process caches of items every request of an account reads alike (docs/reference/caches.md). A ttl of 0 keeps nothing. Time is the process's clock, not the service's.
 */
import { BoundedMap } from './bounded-map';

export class TtlCache<K, V> {
  private readonly entries: BoundedMap<K, { value: V; until: number }>;

  constructor(
    readonly ttlMs: number,
    max = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new BoundedMap(max);
  }

  /** The value as read at most `ttlMs` ago, or undefined when it must be read again. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps what was just read (nothing when `ttlMs` is 0). */
  set(key: K, value: V): void {
    if (this.ttlMs <= 0) return;
    this.entries.set(key, { value, until: this.now() + this.ttlMs });
  }

  /** Forgets a key (this process changed what it holds). */
  delete(key: K): void {
    this.entries.delete(key);
  }
}
