/**
 * The send context's shared items kept for a moment (shared/adapters/store/send-context-cache.ts) through the
 * reader that uses it (send-context.ts), over a fake DynamoDB client that answers BatchGetItem from a map and
 * records the keys each call asked for: the key, account and domain claim are read once per ttl (an absent
 * claim too), suppressions and idempotency records in every read, and a ttl of 0 keeps nothing.
 */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { SendContextCache } from '#shared/adapters/store/send-context-cache';
import { SendContextReader } from '#shared/adapters/store/send-context';
import { keys } from '#shared/adapters/store/keys';
import type { Table } from '#shared/adapters/store/table';
import { DEFAULT_HOT_LOOKUPS_CACHE_MS, loadConfig } from '#shared/config/config';

const ACC = 'acc_1';
const HASH = 'a'.repeat(64);

function fakeTable(items: Record<string, unknown>[]) {
  const stored = new Map(items.map((item) => [`${item.PK}|${item.SK}`, item]));
  const asked: string[][] = [];
  const client = {
    send: async (command: unknown) => {
      if (!(command instanceof BatchGetCommand)) throw new Error('only BatchGetItem is expected');
      const request = command.input.RequestItems!.main!;
      expect(request.ConsistentRead).toBe(true);
      const wanted = (request.Keys ?? []).map((key) => `${key.PK}|${key.SK}`);
      asked.push(wanted);
      return { Responses: { main: wanted.flatMap((id) => (stored.has(id) ? [stored.get(id)!] : [])) } };
    },
  };
  return { table: { client, name: 'main' } as unknown as Table, asked, stored };
}

const account = {
  ...keys.account(ACC),
  id: ACC,
  email: 'owner@example.com',
  plan: 'scale',
  payment_method: true,
  tenants_enabled: false,
  created_at: '2026-11-25T00:00:00.000Z',
  updated_at: '2026-11-25T00:00:00.000Z',
};
const claim = { ...keys.domainName('example.com'), domain_id: 'dom_1', account_id: ACC, status: 'verified', tenant_id: null };
const suppression = { ...keys.suppression(ACC, 'gone@example.org', null), email: 'gone@example.org' };

const query = (recipients: string[], fromDomain = 'example.com') => ({
  accountId: ACC,
  fromDomain,
  recipients,
  tenantId: null,
  now: new Date('2026-11-25T12:00:00Z'),
});
const claimId = `${keys.domainName('example.com').PK}|${keys.domainName('example.com').SK}`;

describe('the send context cache', () => {
  it('reads the shared items once per ttl, and suppressions in every read', async () => {
    const { table, asked } = fakeTable([account, claim, suppression]);
    let now = 1_000_000;
    const reader = new SendContextReader(table, new SendContextCache(1000, 10_000, () => now));
    const first = await reader.read(query(['gone@example.org']));
    expect(first.domain).toMatchObject({ id: 'dom_1', status: 'verified' });
    expect(first.suppressed).toEqual(['gone@example.org']);
    expect(asked[0]).toContain(claimId);

    now += 999;
    const second = await reader.read(query(['gone@example.org', 'new@example.org']));
    expect(second.domain).toMatchObject({ id: 'dom_1', status: 'verified' });
    expect(second.suppressed).toEqual(['gone@example.org']);
    // The claim came from the cache; both recipients' suppressions were read, each with its erased-address
    // key (an erasure keeps only the address's hash: docs/erasure.md), in the same BatchGetItem.
    expect(asked[1]).not.toContain(claimId);
    expect(asked[1]).toHaveLength(4);

    now += 2;
    await reader.read(query(['gone@example.org']));
    expect(asked[2]).toContain(claimId);
  });

  it('keeps an item found absent as absent, for as long', async () => {
    const { table, asked, stored } = fakeTable([account]);
    let now = 0;
    const reader = new SendContextReader(table, new SendContextCache(1000, 10_000, () => now));
    expect((await reader.read(query(['a@example.org']))).domain).toBeNull();
    stored.set(claimId, claim);
    now += 500;
    expect((await reader.read(query(['a@example.org']))).domain).toBeNull();
    expect(asked[1]).not.toContain(claimId);
    now += 600;
    expect((await reader.read(query(['a@example.org']))).domain).toMatchObject({ id: 'dom_1' });
  });

  it('sees a change at once with a ttl of 0, and without a cache', async () => {
    for (const reader of [
      (table: Table) => new SendContextReader(table, new SendContextCache(0)),
      (table: Table) => new SendContextReader(table),
    ]) {
      const { table, asked, stored } = fakeTable([account, claim]);
      const read = reader(table);
      expect((await read.read(query(['a@example.org']))).domain).toMatchObject({ status: 'verified' });
      stored.set(claimId, { ...claim, status: 'failed' });
      expect((await read.read(query(['a@example.org']))).domain).toMatchObject({ status: 'failed' });
      expect(asked.every((keysAsked) => keysAsked.includes(claimId))).toBe(true);
    }
  });

  it('caches the key and the account of an unresolved caller, never an idempotency record', async () => {
    const lookup = {
      ...keys.apiKeyHash(HASH),
      type: 'api_key_lookup',
      key_id: 'key_1',
      account_id: ACC,
      scopes: ['full'],
      tenant_id: null,
      kind: 'api_key',
      created_at: '2026-11-25T00:00:00.000Z',
    };
    const { table, asked } = fakeTable([account, claim, lookup]);
    const reader = new SendContextReader(table, new SendContextCache(1000, 10_000, () => 0));
    const withKey = { ...query(['a@example.org']), apiKeyHash: HASH, idempotencyKey: 'order-1' };
    await reader.read(withKey);
    await reader.read(withKey);
    const accountId = `${keys.account(ACC).PK}|${keys.account(ACC).SK}`;
    const keyId = `${keys.apiKeyHash(HASH).PK}|${keys.apiKeyHash(HASH).SK}`;
    expect(asked[0]).toEqual(expect.arrayContaining([accountId, keyId, claimId]));
    expect(asked[1]!.some((id) => id.startsWith('IDEMPOTENCY#'))).toBe(true);
    expect(asked[1]).not.toEqual(expect.arrayContaining([accountId]));
    expect(asked[1]).not.toEqual(expect.arrayContaining([keyId]));
  });
});

describe('HOT_LOOKUPS_CACHE_MS', () => {
  it('defaults to a second, takes 0 (nothing kept) and whole milliseconds, and ignores anything else', () => {
    expect(loadConfig({}).hotLookupsCacheMs).toBe(DEFAULT_HOT_LOOKUPS_CACHE_MS);
    expect(DEFAULT_HOT_LOOKUPS_CACHE_MS).toBe(1000);
    expect(loadConfig({ HOT_LOOKUPS_CACHE_MS: '0' }).hotLookupsCacheMs).toBe(0);
    expect(loadConfig({ HOT_LOOKUPS_CACHE_MS: '250' }).hotLookupsCacheMs).toBe(250);
    for (const bad of ['-1', '1.5', 'soon', '']) expect(loadConfig({ HOT_LOOKUPS_CACHE_MS: bad }).hotLookupsCacheMs).toBe(1000);
  });
});

describe('recipients cleared by the door (clearOfSuppressions)', () => {
  it("reads neither the account's nor the tenant's suppression of a cleared recipient, and still its opt-out", async () => {
    const { table, asked } = fakeTable([account, claim]);
    const reader = new SendContextReader(table);
    await reader.read({
      ...query(['Cleared@Example.org', 'other@example.org']),
      tenantId: 'ten_1',
      optOutCategory: 'newsletter',
      clearOfSuppressions: ['cleared@example.org'],
    });
    const suppressionKeys = asked[0]!.filter((id) => id.startsWith('SUPPRESSION#'));
    expect(suppressionKeys).toHaveLength(2);
    expect(suppressionKeys.every((id) => id.includes('other@example.org'))).toBe(true);
    expect(asked[0]!.filter((id) => id.startsWith('OPTOUT#') && id.includes('cleared@example.org'))).toHaveLength(2);
  });
});

describe('reads of the shared items at the same moment', () => {
  it("reads a shared item (here the domain's claim) once for sends started together (a batch's items): the others wait for that read", async () => {
    const { table, asked } = fakeTable([account, claim]);
    const reader = new SendContextReader(table, new SendContextCache(1000, 10_000, () => 0));
    const contexts = await Promise.all(Array.from({ length: 5 }, (_, i) => reader.read(query([`r${i}@example.org`]))));
    expect(contexts.every((context) => context.domain?.id === 'dom_1')).toBe(true);
    // The first read asked for the claim; the four others only for their own recipients' suppressions.
    expect(asked.filter((keysAsked) => keysAsked.includes(claimId))).toHaveLength(1);
    expect(asked).toHaveLength(5);
  });

  it('fails the sends that waited for a read that failed, as their own read would have; the next read goes to the table', async () => {
    const { table, asked } = fakeTable([account, claim]);
    const send = table.client.send.bind(table.client);
    let fail = true;
    (table.client as { send: unknown }).send = async (command: unknown) => {
      if (fail && (command as BatchGetCommand).input.RequestItems!.main!.Keys!.some((key) => `${key.PK}|${key.SK}` === claimId)) {
        fail = false;
        throw new Error('throttled');
      }
      return send(command as never);
    };
    const reader = new SendContextReader(table, new SendContextCache(1000, 10_000, () => 0));
    const results = await Promise.allSettled([reader.read(query(['a@example.org'])), reader.read(query(['b@example.org']))]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect((await reader.read(query(['c@example.org']))).domain?.id).toBe('dom_1');
    expect(asked.at(-1)).toContain(claimId);
  });

  it('shares nothing with a ttl of 0: each send reads the shared items itself', async () => {
    const { table, asked } = fakeTable([account, claim]);
    const reader = new SendContextReader(table, new SendContextCache(0));
    await Promise.all([reader.read(query(['a@example.org'])), reader.read(query(['b@example.org']))]);
    expect(asked.filter((keysAsked) => keysAsked.includes(claimId))).toHaveLength(2);
  });
});
