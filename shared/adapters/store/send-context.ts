/**
 * Everything a send must know before it writes, read in ONE strongly consistent BatchGetItem: the API
 * key (when the caller is not resolved yet), the account, the sender
 * domain's claim item (its owner and status), the recipients' suppressions and category opt-outs, and
 * an erased address's suppressions and opt-outs kept by hash (./erasures.ts: one more key per recipient in
 * the same batch; docs/erasure.md), the idempotency record, and the tenant the send names or is expected to be for (its item by
 * external_id, and the id alias when it is named by an id). The send core (shared/usecases/send)
 * decides; this only reads. The key, the account, the claim and the tenant items may come from the
 * SendContextCache instead, as read at most its ttlMs ago (1 s on AWS): a key revoked or a domain deleted
 * is refused within that bound.
 */
import type { Account } from '../../domain/accounts/account';
import { normaliseEmail } from '../../domain/mail/address';
import type { OptOutCategory } from '../../domain/suppressions/reasons';
import { toAccount } from './accounts';
import { toApiKeyLookup, type ApiKeyLookup } from './api-keys';
import { batchGetItems } from './batch-get';
import { erasedAddressKey, erasedOptOutMatches, erasedSuppressionMatches } from './erasures';
import { toSenderDomain } from './domains/stored-domain';
import { toIdempotencyRecord, type IdempotencyRecord, idempotencyKeyOf } from './idempotency';
import { keys } from './keys';
import type { SendContextCache } from './send-context-cache';
import type { Table } from './table';
import { toStoredTenant, toTenantAlias, type StoredTenant } from './tenants';

export interface SendContextQuery {
  accountId: string;
  /** Read the key (by hash) and the account too: the caller is resolved by this read. */
  apiKeyHash?: string;
  /** The sender's domain name; omitted for the sandbox domain (nothing to read). */
  fromDomain?: string;
  recipients: readonly string[];
  /** Recipients whose suppression items (the account's and the tenant's) are not read: found on neither a moment ago. */
  clearOfSuppressions?: readonly string[];
  /** The tenant whose suppression list and opt-outs are read with the account's (null: the account's only). */
  tenantId: string | null;
  /** Tenant items to read, by external_id (keys.tenant(accountId, externalId)). */
  tenantExternalIds?: readonly string[];
  /** Tenant id aliases to read (keys.tenantId): where an id leads, when its external_id is not known. */
  tenantAliasIds?: readonly string[];
  /** Non-transactional category whose opt-outs apply. */
  optOutCategory?: OptOutCategory;
  idempotencyKey?: string;
  now: Date;
}

export interface SendContext {
  key: ApiKeyLookup | null;
  account: Account | null;
  /** The claim of the sender's domain name (any owner), or null when nobody claimed it. `status` is undefined on old claims. */
  domain: ReturnType<typeof toSenderDomain> | null;
  suppressed: string[];
  optedOut: string[];
  idempotency: IdempotencyRecord | null;
  /** Tenant items found among those asked for (the account's own only: the key holds the account). */
  tenants: StoredTenant[];
  /** Tenant id aliases found among those asked for. */
  tenantAliases: TenantAlias[];
}

export interface TenantAlias {
  id: string;
  account_id: string;
  external_id: string;
}

const id = (key: { PK: string; SK: string }) => `${key.PK}\u0000${key.SK}`;
/** The key an `id` joined. */
const keyOf = (joined: string) => {
  const [PK, SK] = joined.split('\u0000') as [string, string];
  return { PK, SK };
};

/** What every send of an account (or tenant, or domain) reads alike: kept by the cache, when there is one. */
const SHARED_KINDS = new Set(['key', 'account', 'domain', 'tenant', 'tenant_alias']);

/** One item the read asks for: what it is, and for a recipient's item whose address. */
interface Wanted {
  kind: string;
  address?: string;
}

/** The items a query asks for (by joined key), and the recipients whose suppressions are not read. */
interface WantedItems {
  wanted: Map<string, Wanted>;
  clear: Set<string>;
}

/** Every item the query needs, by joined key: the caller's, the domain's and the tenants' first, then each recipient's. */
function wantedItems(query: SendContextQuery): WantedItems {
  const { accountId, tenantId } = query;
  const addresses = [...new Set(query.recipients.map(normaliseEmail))];
  const wanted = new Map<string, Wanted>();
  const ask = (key: { PK: string; SK: string }, kind: string, address?: string) => wanted.set(id(key), { kind, address });
  if (query.apiKeyHash) {
    ask(keys.apiKeyHash(query.apiKeyHash), 'key');
    ask(keys.account(accountId), 'account');
  }
  if (query.fromDomain) ask(keys.domainName(query.fromDomain), 'domain');
  for (const externalId of new Set(query.tenantExternalIds ?? [])) ask(keys.tenant(accountId, externalId), 'tenant');
  for (const tenantId of new Set(query.tenantAliasIds ?? [])) ask(keys.tenantId(tenantId), 'tenant_alias', tenantId);
  const clear = new Set((query.clearOfSuppressions ?? []).map(normaliseEmail));
  for (const address of addresses) {
    if (!clear.has(address)) {
      ask(keys.suppression(accountId, address, null), 'suppression', address);
      if (tenantId !== null) ask(keys.suppression(accountId, address, tenantId), 'suppression', address);
    }
    if (query.optOutCategory) {
      ask(keys.categoryOptOut(accountId, address, null, query.optOutCategory), 'optout', address);
      if (tenantId !== null) ask(keys.categoryOptOut(accountId, address, tenantId, query.optOutCategory), 'optout', address);
    }
    // An erased address's lists, kept by hash: one key covers both lists and every category.
    if (!clear.has(address) || query.optOutCategory) ask(erasedAddressKey(accountId, address), 'erased', address);
  }
  const idempotencyKey = query.idempotencyKey === undefined ? undefined : idempotencyKeyOf(accountId, query.idempotencyKey);
  if (idempotencyKey) ask(idempotencyKey, 'idempotency');
  return { wanted, clear };
}

/** The context the found items make: each decoded by its kind; the recipients suppressed and opted out in the request's order. */
function contextOf(query: SendContextQuery, { wanted, clear }: WantedItems, items: Record<string, unknown>[]): SendContext {
  const { tenantId } = query;
  const context: SendContext = {
    key: null,
    account: null,
    domain: null,
    suppressed: [],
    optedOut: [],
    idempotency: null,
    tenants: [],
    tenantAliases: [],
  };
  const suppressed = new Set<string>();
  const optedOut = new Set<string>();
  for (const item of items) {
    const what = wanted.get(id(item as { PK: string; SK: string }));
    if (!what) continue;
    if (what.kind === 'key') context.key = toApiKeyLookup(item);
    else if (what.kind === 'account') context.account = toAccount(item);
    else if (what.kind === 'domain') context.domain = toSenderDomain(item);
    else if (what.kind === 'suppression') suppressed.add(what.address!);
    else if (what.kind === 'optout') optedOut.add(what.address!);
    else if (what.kind === 'erased') {
      if (!clear.has(what.address!) && erasedSuppressionMatches(item, tenantId)) suppressed.add(what.address!);
      if (query.optOutCategory && erasedOptOutMatches(item, tenantId, query.optOutCategory)) optedOut.add(what.address!);
    } else if (what.kind === 'idempotency') context.idempotency = toIdempotencyRecord(item, query.now);
    else if (what.kind === 'tenant') context.tenants.push(toStoredTenant(item));
    else if (what.kind === 'tenant_alias') context.tenantAliases.push(toTenantAlias(item));
  }
  const inRequestOrder = (found: Set<string>) => [...new Set(query.recipients)].filter((address) => found.has(normaliseEmail(address)));
  context.suppressed = inRequestOrder(suppressed);
  context.optedOut = inRequestOrder(optedOut);
  return context;
}

export class SendContextReader {
  /** `cache`: the shared items kept for a moment (./send-context-cache.ts); without it every read goes to the table. */
  constructor(
    private readonly table: Table,
    private readonly cache?: SendContextCache,
  ) {}

  async read(query: SendContextQuery): Promise<SendContext> {
    const wanted = wantedItems(query);
    return contextOf(query, wanted, await this.readItems(wanted.wanted));
  }

  /**
   * Which of `addresses` are on the account's own suppression list (an entry, or an erased address's kept
   * entry): one strongly consistent BatchGetItem per 50 addresses, all at once. A batch send reads its items'
   * recipients so, and hands each item those found on neither as cleared (no read of them per item).
   */
  async suppressedAmong(accountId: string, addresses: readonly string[]): Promise<Set<string>> {
    const distinct = [...new Set(addresses.map(normaliseEmail))];
    // Each key read, by joined key: whose address, and whether it is the erased address's kept entry.
    const asked = new Map<string, { address: string; erased: boolean }>();
    for (const address of distinct) {
      asked.set(id(keys.suppression(accountId, address, null)), { address, erased: false });
      asked.set(id(erasedAddressKey(accountId, address)), { address, erased: true });
    }
    const suppressed = new Set<string>();
    if (asked.size === 0) return suppressed;
    for (const item of await batchGetItems(this.table, [...asked.keys()].map(keyOf), { consistentRead: true })) {
      const what = asked.get(id(item as { PK: string; SK: string }));
      if (what && (!what.erased || erasedSuppressionMatches(item, null))) suppressed.add(what.address);
    }
    return suppressed;
  }

  /**
   * Shared items being read by a send of this process right now (item id -> the read's answer for it): a
   * send that wants one of them waits for that read instead of reading it too. A batch's items start
   * together, and would otherwise each read the key, the account and the domain's claim before the first
   * answer filled the cache.
   */
  private readonly reading = new Map<string, Promise<Record<string, unknown> | null>>();

  /** Shared items are kept, and shared while read (a ttl of 0 keeps nothing: every send reads them itself). */
  private get keepsShared(): boolean {
    return this.cache !== undefined && this.cache.ttlMs > 0;
  }

  /**
   * The wanted items found: the shared ones the cache still holds or another send is reading, the rest in
   * one strongly consistent batch (then cached).
   */
  private async readItems(wanted: Map<string, Wanted>): Promise<Record<string, unknown>[]> {
    const kept: Record<string, unknown>[] = [];
    const joined: Promise<Record<string, unknown> | null>[] = [];
    const toRead: string[] = [];
    for (const [key, what] of wanted) {
      const shared = this.keepsShared && SHARED_KINDS.has(what.kind);
      const cached = shared ? this.cache!.get(key) : undefined;
      const inFlight = shared && cached === undefined ? this.reading.get(key) : undefined;
      if (cached === null) continue;
      if (cached !== undefined) kept.push(cached);
      else if (inFlight) joined.push(inFlight);
      else toRead.push(key);
    }
    const read = toRead.length ? this.readShared(toRead, wanted) : Promise.resolve([]);
    const [items, others] = await Promise.all([read, Promise.all(joined)]);
    return [...kept, ...items, ...others.filter((item) => item !== null)];
  }

  /** One strongly consistent batch of `toRead`; its shared items cached, and offered to other sends while it is read. */
  private async readShared(toRead: string[], wanted: Map<string, Wanted>): Promise<Record<string, unknown>[]> {
    const batch = batchGetItems(this.table, toRead.map(keyOf), { consistentRead: true });
    if (!this.keepsShared) return batch;
    const found = batch.then((items) => new Map(items.map((item) => [id(item as { PK: string; SK: string }), item])));
    const shared = toRead.filter((key) => SHARED_KINDS.has(wanted.get(key)!.kind));
    for (const key of shared) {
      const answer = found.then((items) => items.get(key) ?? null);
      // A failed read fails the sends that joined it (as their own read would); never an unhandled rejection.
      answer.catch(() => undefined);
      this.reading.set(key, answer);
    }
    try {
      const items = await found;
      for (const key of shared) this.cache!.set(key, items.get(key) ?? null);
      return [...items.values()];
    } finally {
      for (const key of shared) this.reading.delete(key);
    }
  }
}
