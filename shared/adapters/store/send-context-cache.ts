/**
 * The send context's shared items kept for a moment, per process (docs/reference/caches.md): the API key or SMTP credential, the account, the sender domain's claim, and the tenant
 * items and id aliases a send reads. Every send of an account reads the same few items, and DynamoDB serves
 * one item at most 3,000 strongly consistent reads a second (its partition's), so without this one account
 * could not send faster than that (docs/benchmarks.md, "The partition model"). With it, each process reads
 * each of them at most once per ttl, whatever its send rate.
 *
 * Suppressions, category opt-outs and idempotency records are never kept: they are read in every send's
 * batch. An item found absent is kept too (a domain nobody claimed: null), for as long.
 *
 * The staleness bound is the ttl (HOT_LOOKUPS_CACHE_MS, 1 s by default; 0 keeps nothing): a key revoked, an
 * account deleted, a domain deleted or a tenant paused may still be used by a warm process for that long.
 */
import { TtlCache } from '../../lib/ttl-cache';

/** Item id (`PK\0SK`) -> the item as read, or null when it was absent. */
export class SendContextCache extends TtlCache<string, Record<string, unknown> | null> {}
