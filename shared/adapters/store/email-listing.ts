/**
 * The email listings (GET /emails, and ?tenant= or a tenant key's): an account's emails on GSI1
 * (`GSI1PK = keys.emailsByAccount(acc, shard)`, `GSI1SK = <msg id>`), a tenant's on the sparse GSI3
 * (`GSI3PK = keys.emailsByTenant(ten, shard)`, only tenant emails carry it). Ids are ULIDs, so newest first is
 * a reverse key sort. The indexes are eventually consistent: an email accepted a moment ago may take a moment
 * to be listed.
 *
 * Shards. Each email's index entry is written once under one of EMAIL_INDEX_SHARDS partition keys of its
 * account (and tenant), chosen from its id (emailIndexShard), so one account's sends are spread over that
 * many partitions instead of one (a partition takes at most 1,000 write units a second: docs/benchmarks.md,
 * "The partition model"). A page is a merge: every shard is queried newest first after the cursor's id
 * (`GSI1SK < :after`, the ids order all shards alike) for about its share of the page, again only while it
 * may still hold entries of the page (`merged` below), the answers merged by id and the first `limit` kept;
 * the cursor carries the last id, bound to the account's (or tenant's) listing. Emails written before the shards (all under shard 0) are in the merge like any other, and a
 * cursor of the one-partition listing (a DynamoDB start key of shard 0) still continues where it was.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../../domain/errors';
import type { Email } from '../../domain/emails/email';
import { encodeCursor, type Page } from './cursor';
import { EMAIL_INDEX_SHARDS } from './email-index-shard';
import { toStoredEmail } from './emails';
import { keys } from './keys';
import type { PageRequest } from './paginate';
import type { Table } from './table';

interface Listing {
  index: 'GSI1' | 'GSI3';
  /** The partition key of shard `n`. */
  partition: (shard: number) => string;
  /** What a cursor is bound to: the listing's partition key without its shard. */
  owner: string;
}

const invalidCursor = () =>
  new ValidationError('The cursor is invalid. Pass next_cursor from the previous page unchanged.', { details: { fields: [{ field: 'cursor', message: 'invalid cursor' }] } });

const ID = /^msg_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * The id a cursor continues after: `{listing, after}` of this listing, or a start key of its shard 0 from
 * before the shards (`{PK, SK, <index>PK, <index>SK}`). Anything else is 400 at `cursor`.
 */
function cursorAfter(cursor: string | undefined, listing: Listing): string | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  let parsed: Record<string, unknown> | undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    parsed = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed) throw invalidCursor();
  const names = Object.keys(parsed).sort().join(',');
  if (names === 'after,listing' && parsed.listing === listing.owner && typeof parsed.after === 'string' && ID.test(parsed.after)) return parsed.after;
  const pk = `${listing.index}PK`;
  const sk = `${listing.index}SK`;
  const legacy = names === [pk, sk, 'PK', 'SK'].sort().join(',') && parsed[pk] === listing.partition(0) && typeof parsed[sk] === 'string' && ID.test(parsed[sk] as string) && parsed.PK === `EMAIL#${parsed[sk]}` && parsed.SK === 'EMAIL';
  if (legacy) return parsed[sk] as string;
  throw invalidCursor();
}

export class EmailListingRepository {
  constructor(private readonly table: Table) {}

  /** One page of an account's emails, newest first; `next_cursor` null on the last page. */
  list(accountId: string, page: PageRequest): Promise<Page<Email>> {
    return this.merged({ index: 'GSI1', partition: (shard) => keys.emailsByAccount(accountId, shard), owner: `ACCOUNT#${accountId}#EMAILS` }, page);
  }

  /**
   * One page of a tenant's emails, newest first, from the sparse tenant index (GSI3: only tenant emails
   * are in it, so a small tenant of a large account costs one Query per shard and page, never a filtered
   * scan of the account's emails). The cursor is bound to the tenant's listing.
   */
  listByTenant(tenantId: string, page: PageRequest): Promise<Page<Email>> {
    return this.merged({ index: 'GSI3', partition: (shard) => keys.emailsByTenant(tenantId, shard), owner: `TENANT#${tenantId}#EMAILS` }, page);
  }

  /**
   * A k-way merge that reads about one page: each shard is asked first for its share of the page
   * (`limit + 1` over the shards, plus one), and again (twice as much each time) only while its last entry
   * read is newer than the page's oldest so far, so it may still hold entries of the page. Evenly spread
   * shards answer in one round of parallel Queries reading about `limit + 1 + shards` entries.
   */
  private async merged(listing: Listing, page: PageRequest): Promise<Page<Email>> {
    const after = cursorAfter(page.cursor, listing);
    const wanted = page.limit + 1;
    const pk = `${listing.index}PK`;
    const sk = `${listing.index}SK`;
    const shards = Array.from({ length: EMAIL_INDEX_SHARDS }, (_, shard) => ({
      shard,
      items: [] as Record<string, unknown>[],
      next: undefined as Record<string, unknown> | undefined,
      done: false,
      ask: Math.ceil(wanted / EMAIL_INDEX_SHARDS) + 1,
    }));
    const read = async (state: (typeof shards)[number]) => {
      const { Items = [], LastEvaluatedKey } = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.name,
          IndexName: listing.index,
          KeyConditionExpression: after === undefined ? '#pk = :pk' : '#pk = :pk AND #sk < :after',
          ExpressionAttributeNames: { '#pk': pk, ...(after === undefined ? {} : { '#sk': sk }) },
          ExpressionAttributeValues: { ':pk': listing.partition(state.shard), ...(after === undefined ? {} : { ':after': after }) },
          ScanIndexForward: false,
          Limit: state.ask,
          ExclusiveStartKey: state.next,
        }),
      );
      state.items.push(...Items);
      state.next = LastEvaluatedKey;
      state.done = !LastEvaluatedKey;
      state.ask = Math.min(wanted, state.ask * 2);
    };
    const idOf = (item: Record<string, unknown>) => String(item[sk]);
    const newestFirst = (a: Record<string, unknown>, b: Record<string, unknown>) => (idOf(a) < idOf(b) ? 1 : idOf(a) > idOf(b) ? -1 : 0);
    let pending = shards;
    let merged: Record<string, unknown>[] = [];
    while (pending.length > 0) {
      await Promise.all(pending.map(read));
      merged = shards.flatMap((state) => state.items).sort(newestFirst);
      // The page's oldest entry so far; a shard whose last entry read is older cannot add to the page.
      const cutoff = merged.length >= wanted ? idOf(merged[wanted - 1]!) : undefined;
      pending = shards.filter((state) => {
        const lastRead = state.items[state.items.length - 1];
        return !state.done && (cutoff === undefined || lastRead === undefined || idOf(lastRead) > cutoff);
      });
    }
    const items = merged.slice(0, page.limit).map((item) => toStoredEmail(item).email);
    const more = merged.length > page.limit;
    const last = items[items.length - 1];
    return {
      items,
      next_cursor: more && last ? encodeCursor({ listing: listing.owner, after: last.id }) : null,
    };
  }
}
