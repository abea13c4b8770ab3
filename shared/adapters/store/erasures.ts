/**
 * Erasure's part of the table (docs/erasure.md):
 *
 * - address references: what names an address, one small item per (address, record) in the address's own
 *   partition, keyed by its hash (`ADDRESSREF#<acc>#<hash>` / `<KIND>#<target>`). The writers of emails,
 *   received emails, webhook deliveries, automation runs and exports put them beside their records
 *   (writeAddressRefs), expiring with them; an erasure reads them with one Query a page, so nothing is ever scanned.
 * - erased addresses: an erased address's suppressions and category opt-outs, kept by hash
 *   (`ERASED#<acc>#<hash>`: the lists' sort keys as string sets), read by the send path in its one
 *   BatchGetItem (erasedSuppressionMatches; ./send-context.ts, ./suppressions.ts).
 * - erasures: the record of one erasure (progress and counts; never the address).
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { erasureRecordSchema, type ErasedCounts, type Erasure } from '../../domain/privacy/erasure';
import { addressHash } from '../../domain/privacy/address-hash';
import { batchWrite, deleteRequests, putRequests } from './batch-write';
import { decodeItem } from './decode';
import { keyPart, keys } from './keys';
import type { Table } from './table';

/**
 * The attribute that says which address references a record's writer put beside it: ADDRESS_REFS_VERSION on
 * emails, received emails, webhook deliveries, automation runs and exports written by this release. The
 * adoption of older records (./legacy-records.ts) writes the references of those without it (version 1, of
 * 2026-11-25: a sent email's To, Cc and Bcc, a received email's From, a few fields of an event; before it,
 * none) and then sets it; an erasure deletes the exports without it whole (./exports.ts).
 */
export const ADDRESS_REFS_MARK = 'address_refs';
/** Version 2: every address a record names (shared/domain/privacy/named-addresses.ts), exports included. */
export const ADDRESS_REFS_VERSION = 2;

/** The kinds of record an address reference points at. */
export type AddressRefKind = 'email' | 'received_email' | 'webhook_delivery' | 'idempotency_record' | 'automation_run' | 'export';

/** One address reference: what it points at (the record's table key) and its own key. */
export interface AddressRef {
  kind: AddressRefKind;
  target: { PK: string; SK: string };
  key: { PK: string; SK: string };
}

const REF_PREFIX: Record<AddressRefKind, string> = {
  email: 'EMAIL',
  received_email: 'RECEIVED',
  webhook_delivery: 'DELIVERY',
  idempotency_record: 'IDEMPOTENCY',
  automation_run: 'RUN',
  export: 'EXPORT',
};

/** The Put items of one record's references (one per address); `ttl` (epoch s): the record's own. */
export function addressRefItems(
  accountId: string,
  addresses: readonly string[],
  kind: AddressRefKind,
  target: { PK: string; SK: string },
  ttl?: number,
): Record<string, unknown>[] {
  return [...new Set(addresses)].map((address) => ({
    ...keys.addressRef(accountId, addressHash(accountId, address), `${REF_PREFIX[kind]}#${target.PK}#${target.SK}`),
    type: 'address_ref',
    kind,
    target_pk: target.PK,
    target_sk: target.SK,
    ...(ttl === undefined ? {} : { ttl }),
  }));
}

/**
 * Writes one record's address references (BatchWriteItem, 25 a call, unprocessed items retried). Written
 * beside the record, in parallel with it: no extra round trip. A reference whose record was never written
 * (a refused conditional put) points at nothing and an erasure simply deletes it.
 */
export async function writeAddressRefs(
  table: Table,
  accountId: string,
  addresses: readonly string[],
  kind: AddressRefKind,
  target: { PK: string; SK: string },
  ttl?: number,
): Promise<void> {
  await putAddressRefs(table, addressRefItems(accountId, addresses, kind, target, ttl));
}

/** Writes address reference items (addressRefItems') of one or more records together: 25 a BatchWriteItem. */
export async function putAddressRefs(table: Table, items: readonly Record<string, unknown>[]): Promise<void> {
  await batchWrite(table, putRequests(items));
}

const deleteKeys = (table: Table, itemKeys: readonly { PK: string; SK: string }[]) => batchWrite(table, deleteRequests(itemKeys));

/** The sort key of an account-wide list (suppressions: `ACCOUNT`; opt-outs: `ACCOUNT#CATEGORY#<c>`) or a tenant's. */
const listKey = (tenantId: string | null) => (tenantId === null ? 'ACCOUNT' : `TENANT#${keyPart(tenantId)}`);

/** The erased-address items to read for these recipients (one per address), beside their suppression keys. */
export function erasedAddressKey(accountId: string, address: string): { PK: string; SK: string } {
  return keys.erasedAddress(accountId, addressHash(accountId, address));
}

/** Whether an erased-address item refuses a send: suppressed on the account's list or the tenant's. */
export function erasedSuppressionMatches(item: Record<string, unknown>, tenantId: string | null): boolean {
  const lists = item.lists instanceof Set ? (item.lists as Set<string>) : new Set<string>();
  return lists.has(listKey(null)) || (tenantId !== null && lists.has(listKey(tenantId)));
}

/** Whether an erased-address item opted out of `category` on the account's list or the tenant's. */
export function erasedOptOutMatches(item: Record<string, unknown>, tenantId: string | null, category: string): boolean {
  const optOuts = item.optouts instanceof Set ? (item.optouts as Set<string>) : new Set<string>();
  return (
    optOuts.has(`${listKey(null)}#CATEGORY#${category}`) || (tenantId !== null && optOuts.has(`${listKey(tenantId)}#CATEGORY#${category}`))
  );
}

/** An address's entries on every list of the account (its own two partitions). */
export interface AddressListEntries {
  /** Sort keys of its suppressions: `ACCOUNT`, `TENANT#<t>`. */
  suppressions: string[];
  /** Sort keys of its category opt-outs: `ACCOUNT#CATEGORY#<c>`, `TENANT#<t>#CATEGORY#<c>`. */
  optOuts: string[];
}

function toErasure(item: Record<string, unknown>): Erasure {
  return decodeItem(erasureRecordSchema, item, 'Erasure');
}

export class ErasureRepository {
  constructor(private readonly table: Table) {}

  async create(erasure: Erasure): Promise<void> {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...keys.erasure(erasure.account_id, erasure.id), type: 'erasure', ...erasure },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async get(accountId: string, erasureId: string): Promise<Erasure | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.erasure(accountId, erasureId), ConsistentRead: true }),
    );
    return result.Item ? toErasure(result.Item) : null;
  }

  /**
   * Adds to the counts (ADD: two stretches running at once each add only what they removed), marks the
   * address's lists kept by hash, and completes the erasure when `completedAt` is given. Returns the record.
   */
  async record(
    accountId: string,
    erasureId: string,
    change: { removed: Partial<ErasedCounts>; keptAsHash?: boolean; at: string; completedAt?: string },
  ): Promise<Erasure> {
    const names: Record<string, string> = { '#updated': 'updated_at' };
    const values: Record<string, unknown> = { ':at': change.at };
    const sets = ['#updated = :at'];
    Object.entries(change.removed).forEach(([kind, count], i) => {
      if (!count) return;
      names['#removed'] = 'removed';
      names[`#k${i}`] = kind;
      values[`:n${i}`] = count;
      sets.push(`#removed.#k${i} = #removed.#k${i} + :n${i}`);
    });
    if (change.keptAsHash) {
      sets.push('suppression_kept_as_hash = :true');
      values[':true'] = true;
    }
    if (change.completedAt) {
      names['#status'] = 'status';
      values[':completed'] = 'completed';
      values[':completed_at'] = change.completedAt;
      sets.push('#status = :completed', 'completed_at = :completed_at');
    }
    const result = await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.erasure(accountId, erasureId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toErasure(result.Attributes!);
  }

  /** Up to `limit` of the address's references (strongly consistent: one partition, one Query). */
  async refsPage(accountId: string, hash: string, limit: number): Promise<AddressRef[]> {
    const result = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.addressRefs(accountId, hash) },
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return (result.Items ?? []).map((item) => ({
      kind: item.kind as AddressRefKind,
      target: { PK: item.target_pk as string, SK: item.target_sk as string },
      key: { PK: item.PK as string, SK: item.SK as string },
    }));
  }

  /** Deletes one record; its old image, or null when it was gone already (so each is counted once). */
  async deleteRecord(key: { PK: string; SK: string }): Promise<Record<string, unknown> | null> {
    const result = await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: key, ReturnValues: 'ALL_OLD' }));
    return result.Attributes ?? null;
  }

  async deleteRefs(refs: readonly AddressRef[]): Promise<void> {
    await deleteKeys(
      this.table,
      refs.map((ref) => ref.key),
    );
  }

  /** The address's suppressions and opt-outs on every list of the account (two Queries of its own partitions). */
  async listEntries(accountId: string, address: string): Promise<AddressListEntries> {
    const sortKeys = async (PK: string) => {
      const found: string[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await this.table.client.send(
          new QueryCommand({
            TableName: this.table.name,
            KeyConditionExpression: 'PK = :pk',
            ExpressionAttributeValues: { ':pk': PK },
            ProjectionExpression: 'SK',
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        );
        found.push(...(page.Items ?? []).map((item) => item.SK as string));
        start = page.LastEvaluatedKey;
      } while (start);
      return found;
    };
    const [suppressions, optOuts] = await Promise.all([
      sortKeys(keys.suppression(accountId, address, null).PK),
      sortKeys(keys.categoryOptOut(accountId, address, null, 'x').PK),
    ]);
    return { suppressions, optOuts };
  }

  /**
   * Keeps the address's lists under its hash (string sets of their sort keys, added to whatever an earlier
   * erasure kept), then deletes the entries that named it. In that order: the address is never mailable
   * in between.
   */
  async replaceEntriesByHash(accountId: string, address: string, entries: AddressListEntries): Promise<void> {
    const hash = addressHash(accountId, address);
    const adds: string[] = [];
    const values: Record<string, unknown> = {};
    if (entries.suppressions.length) {
      adds.push('lists :lists');
      values[':lists'] = new Set(entries.suppressions);
    }
    if (entries.optOuts.length) {
      adds.push('optouts :optouts');
      values[':optouts'] = new Set(entries.optOuts);
    }
    if (adds.length === 0) return;
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.erasedAddress(accountId, hash),
        UpdateExpression: `SET #type = :type ADD ${adds.join(', ')}`,
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ...values, ':type': 'erased_address' },
      }),
    );
    const suppressionPK = keys.suppression(accountId, address, null).PK;
    const optOutPK = keys.categoryOptOut(accountId, address, null, 'x').PK;
    await deleteKeys(this.table, [
      ...entries.suppressions.map((SK) => ({ PK: suppressionPK, SK })),
      ...entries.optOuts.map((SK) => ({ PK: optOutPK, SK })),
    ]);
  }
}
