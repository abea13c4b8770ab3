/**
 * The email listings (GET /emails, and ?tenant= or a tenant key's): an account's emails on GSI4
 * (`GSI4PK = keys.emailsByAccount(acc, shard)`, `GSI4SK = <msg id>`), a tenant's on the sparse GSI5
 * (`GSI5PK = keys.emailsByTenant(ten, shard)`, only tenant emails carry it). Ids are ULIDs, so newest first is
 * a reverse key sort. The indexes are eventually consistent: an email accepted a moment ago may take a moment
 * to be listed.
 *
 * Keys only. GSI4 and GSI5 hold each email's keys and nothing else, so an entry is written once, when the email is
 * accepted, and the status writes that follow (claim, sent, delivered, opened...) never rewrite it (an ALL
 * projection is rewritten whole by each: 8-12 write units an email, docs/benchmarks.md). A page reads the
 * entries, then its emails with one strongly consistent BatchGetItem (the item is written before its index
 * entry, so it is there).
 *
 * Shards. Each email's index entry is written once under one of EMAIL_INDEX_SHARDS partition keys of its
 * account (and tenant), chosen from its id (emailIndexShard), so one account's sends are spread over that
 * many partitions instead of one (a partition takes at most 1,000 write units a second: docs/benchmarks.md,
 * "The partition model"). A page is a merge: every shard is queried newest first after the cursor's id
 * (`<index>SK < :after`, the ids order all shards alike) for about its share of the page, again only while it
 * may still hold entries of the page (`merged` below), the answers merged by id and the first `limit` kept;
 * the cursor carries the last id, bound to the account's (or tenant's) listing.
 *
 * Older emails. Emails accepted before GSI4 and GSI5 have their account entry on GSI1 and their tenant entry on
 * GSI3 (both ALL), and emails of before the shards sit under shard 0: a merge reads the older index's shards
 * beside the new one's (16 more Queries a page, in parallel; a process that found a listing with none skips them for OLDER_EMPTY_TTL_MS), so a running deployment keeps its whole history
 * with no migration, and a cursor of the one-partition listing (a DynamoDB start key of GSI1's shard 0) still
 * continues where it was.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { isExpired } from '../../domain/accounts/retention';
import { serviceClock } from '../clock';
import { batchGetItems } from './batch-get';
import type { Email } from '../../domain/emails/email';
import { encodeCursor, type Page } from './cursor';
import { EMAIL_INDEX_SHARDS } from './email-index-shard';
import { cursorAfter, listingOf, type Listing, type ListingSource } from './email-listing-sources';
import { toStoredEmail } from './emails/stored-email';
import { keys } from './keys';
import type { PageRequest } from './paginate';
import type { Table } from './table';
import { TtlCache } from '../../lib/ttl-cache';

/** One index entry: the email's id, and its item when the index projects it. */
interface Entry {
  id: string;
  item?: Record<string, unknown>;
}

/** One shard of one source, as a merge reads it: its entries so far, where it continues and how many it asks for next. */
interface Stream {
  source: ListingSource;
  shard: number;
  entries: Entry[];
  next: Record<string, unknown> | undefined;
  done: boolean;
  ask: number;
}

/** Every shard of each source the merge reads (the older index's left out when known empty), each first asking its share of the page. */
function streamsOf(listing: Listing, wanted: number, olderKnownEmpty: boolean): Stream[] {
  const sources = listing.sources.filter((source) => source.keysOnly || !olderKnownEmpty);
  return sources.flatMap((source) =>
    Array.from({ length: EMAIL_INDEX_SHARDS }, (_, shard) => ({
      source,
      shard,
      entries: [] as Entry[],
      next: undefined,
      done: false,
      ask: Math.ceil(wanted / EMAIL_INDEX_SHARDS) + 1,
    })),
  );
}

const newestFirst = (a: Entry, b: Entry) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** The entries read so far, newest first; an email listed in two sources (an older email indexed again) counts once. */
function mergedEntries(streams: readonly Stream[]): Entry[] {
  return streams
    .flatMap((stream) => stream.entries)
    .sort(newestFirst)
    .filter((entry, i, all) => i === 0 || all[i - 1]!.id !== entry.id);
}

/**
 * How long a process remembers that a listing has no older entries (GSI1/GSI3) at all, and reads only its
 * keys-only index: no email is written there any more, but while a deploy rolls out an older version may still
 * write one for a few minutes, which such a process lists at most this long after.
 */
export const OLDER_EMPTY_TTL_MS = 10 * 60_000;

export class EmailListingRepository {
  /** Listings (their owner) found with no older entries at all: their older index's 16 Queries are skipped. */
  private readonly olderEmpty = new TtlCache<string, true>(OLDER_EMPTY_TTL_MS);

  constructor(private readonly table: Table) {}

  /** One page of an account's emails, newest first; `next_cursor` null on the last page. */
  list(accountId: string, page: PageRequest): Promise<Page<Email>> {
    return this.merged(
      listingOf('GSI4', 'GSI1', (shard) => keys.emailsByAccount(accountId, shard), `ACCOUNT#${accountId}#EMAILS`),
      page,
    );
  }

  /**
   * One page of a tenant's emails, newest first, from the sparse tenant index (GSI5, and GSI3 for tenant
   * emails accepted before it: only tenant emails are in them, so a small tenant of a large account costs one
   * Query per shard and page, never a filtered scan of the account's emails). The cursor is bound to the
   * tenant's listing.
   */
  listByTenant(tenantId: string, page: PageRequest): Promise<Page<Email>> {
    return this.merged(
      listingOf('GSI5', 'GSI3', (shard) => keys.emailsByTenant(tenantId, shard), `TENANT#${tenantId}#EMAILS`),
      page,
    );
  }

  /**
   * A k-way merge that reads about one page: each shard of each source is asked first for its share of the
   * page (`limit + 1` over the shards, plus one), and again (twice as much each time) only while its last
   * entry read is newer than the page's oldest so far, so it may still hold entries of the page. Evenly
   * spread shards answer in one round of parallel Queries reading about `limit + 1 + shards` entries.
   */
  private async merged(listing: Listing, page: PageRequest): Promise<Page<Email>> {
    const after = cursorAfter(page.cursor, listing);
    const wanted = page.limit + 1;
    const olderKnownEmpty = this.olderEmpty.get(listing.owner) === true;
    const streams = streamsOf(listing, wanted, olderKnownEmpty);
    let pending = streams;
    let merged: Entry[] = [];
    while (pending.length > 0) {
      await Promise.all(pending.map((stream) => this.readStream(stream, listing, after, wanted)));
      merged = mergedEntries(streams);
      // The page's oldest entry so far; a shard whose last entry read is older cannot add to the page.
      const cutoff = merged.length >= wanted ? merged[wanted - 1]!.id : undefined;
      pending = streams.filter((stream) => {
        const lastRead = stream.entries[stream.entries.length - 1];
        return !stream.done && (cutoff === undefined || lastRead === undefined || lastRead.id > cutoff);
      });
    }
    // A whole listing (no cursor) whose older shards all answered nothing has no older entries at all.
    const older = streams.filter((stream) => !stream.source.keysOnly);
    if (after === undefined && older.length > 0 && older.every((stream) => stream.done && stream.entries.length === 0))
      this.olderEmpty.set(listing.owner, true);
    const pageEntries = merged.slice(0, page.limit);
    const items = await this.withItems(pageEntries);
    const more = merged.length > page.limit;
    const last = pageEntries[pageEntries.length - 1];
    return {
      items: items.map((item) => toStoredEmail(item).email),
      next_cursor: more && last ? encodeCursor({ listing: listing.owner, after: last.id }) : null,
    };
  }

  /** The stream's next Query (newest first, after the cursor's id), its entries added; it asks twice as many next time. */
  private async readStream(stream: Stream, listing: Listing, after: string | undefined, wanted: number): Promise<void> {
    const { index, keysOnly } = stream.source;
    const { Items = [], LastEvaluatedKey } = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        IndexName: index,
        KeyConditionExpression: after === undefined ? '#pk = :pk' : '#pk = :pk AND #sk < :after',
        ExpressionAttributeNames: { '#pk': `${index}PK`, ...(after === undefined ? {} : { '#sk': `${index}SK` }) },
        ExpressionAttributeValues: { ':pk': listing.partition(stream.shard), ...(after === undefined ? {} : { ':after': after }) },
        ScanIndexForward: false,
        Limit: stream.ask,
        ExclusiveStartKey: stream.next,
      }),
    );
    stream.entries.push(...Items.map((item) => ({ id: String(item[`${index}SK`]), item: keysOnly ? undefined : item })));
    stream.next = LastEvaluatedKey;
    stream.done = !LastEvaluatedKey;
    stream.ask = Math.min(wanted, stream.ask * 2);
  }

  /**
   * The page's email items in the page's order: a keys-only entry's item read from the table (one strongly
   * consistent BatchGetItem for the page, at most 100 keys); an entry whose item is gone is left out.
   */
  private async withItems(entries: Entry[]): Promise<Record<string, unknown>[]> {
    const missing = entries.filter((entry) => entry.item === undefined);
    const read = missing.length
      ? await batchGetItems(
          this.table,
          missing.map((entry) => keys.email(entry.id)),
          { consistentRead: true },
        )
      : [];
    const byId = new Map(read.map((item) => [String(item.id), item]));
    return entries.flatMap((entry) => {
      const item = entry.item ?? byId.get(entry.id);
      // An email past its retention is left out (DynamoDB's TTL deletes lazily: docs/retention.md).
      return item && !isExpired(item, serviceClock.now()) ? [item] : [];
    });
  }
}
