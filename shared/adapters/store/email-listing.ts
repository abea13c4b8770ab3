/**
 * The per-account email listing (GET /emails): GSI1, `GSI1PK = keys.emailsByAccount(acc, shard)`,
 * `GSI1SK = <msg id>`. Ids are ULIDs, so newest first is a reverse key sort (ScanIndexForward false).
 * The index is eventually consistent: an email accepted a moment ago may take a moment to be listed.
 *
 * Shards. EmailRepository.create writes every email to shard 0 today, and this reads shard 0 only: the
 * cursor is queryPage's (the DynamoDB key, bound to the shard-0 partition of the account). When a large
 * account gets several shards this must become a merge, which is NOT implemented: query every shard for
 * `limit + 1` items newest first, merge them by GSI1SK descending (ULIDs compare as strings) and keep the
 * first `limit + 1`; the cursor then carries the last returned id (bound to the account), and each shard
 * resumes with `GSI1SK < :last` in its key condition instead of an ExclusiveStartKey, which works for
 * any number of shards because the ids order all of them. Until then `EMAIL_INDEX_SHARDS` must stay 1.
 */
import type { Email } from '../../domain/emails/email';
import type { Page } from './cursor';
import { toStoredEmail } from './emails';
import { keys } from './keys';
import { queryGsi1NewestFirst, queryPage, type PageRequest } from './paginate';
import type { Table } from './table';

/** Shards of an account's email index written today (see above before raising it). */
export const EMAIL_INDEX_SHARDS = 1;

export class EmailListingRepository {
  constructor(private readonly table: Table) {}

  /** One page of an account's emails, newest first; `next_cursor` null on the last page. */
  list(accountId: string, page: PageRequest): Promise<Page<Email>> {
    return queryGsi1NewestFirst(this.table, keys.emailsByAccount(accountId, 0), page, (item) => toStoredEmail(item).email);
  }

  /**
   * One page of a tenant's emails, newest first, from the sparse tenant index (GSI3: only tenant emails
   * are in it, so a small tenant of a large account costs one Query per page, never a filtered scan of
   * the account's emails). The cursor is bound to the tenant's partition. Eventually consistent, like
   * the account listing.
   */
  listByTenant(tenantId: string, page: PageRequest): Promise<Page<Email>> {
    const partition = keys.emailsByTenant(tenantId, 0);
    return queryPage(
      this.table,
      { IndexName: 'GSI3', KeyConditionExpression: 'GSI3PK = :pk', ExpressionAttributeValues: { ':pk': partition }, ScanIndexForward: false },
      page,
      { GSI3PK: partition },
      (item) => ({ PK: item.PK, SK: item.SK, GSI3PK: item.GSI3PK, GSI3SK: item.GSI3SK }),
      (item) => toStoredEmail(item).email,
    );
  }
}
