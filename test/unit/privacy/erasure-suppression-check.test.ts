/**
 * The send path's suppression check finds an erased address by its hash (docs/erasure.md, "The hash"): the
 * erased-address key is read in the same BatchGetItem as the suppression keys (one round trip per send).
 * A fake document client answers BatchGetItem from a map of items and counts the calls.
 */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { erasedAddressKey } from '#shared/adapters/store/erasures';
import { keys } from '#shared/adapters/store/keys';
import { SendContextReader } from '#shared/adapters/store/send-context';
import { SuppressionRepository } from '#shared/adapters/store/suppressions';
import type { Table } from '#shared/adapters/store/table';

const ACC = 'acc_1';
const NOW = new Date('2026-11-25T10:00:00Z');

function fakeTable(items: Record<string, unknown>[]) {
  const byKey = new Map(items.map((item) => [`${item.PK}|${item.SK}`, item]));
  const calls: { keys: { PK: string; SK: string }[] }[] = [];
  const table: Table = {
    name: 'tbl',
    client: {
      send: async (command: unknown) => {
        if (!(command instanceof BatchGetCommand)) throw new Error(`unexpected ${String(command)}`);
        const asked = command.input.RequestItems!.tbl!.Keys as { PK: string; SK: string }[];
        calls.push({ keys: asked });
        return { Responses: { tbl: asked.map((key) => byKey.get(`${key.PK}|${key.SK}`)).filter(Boolean) }, UnprocessedKeys: {} };
      },
    } as unknown as Table['client'],
  };
  return { table, calls };
}

const erased = (address: string, lists: string[], optOuts: string[] = []) => ({
  ...erasedAddressKey(ACC, address),
  ...(lists.length ? { lists: new Set(lists) } : {}),
  ...(optOuts.length ? { optouts: new Set(optOuts) } : {}),
});

describe('the send path finds an erased address by its hash', () => {
  it('refuses an erased address suppressed on the account list, in the one BatchGetItem of the send context', async () => {
    const { table, calls } = fakeTable([erased('gone@example.org', ['ACCOUNT'])]);
    const context = await new SendContextReader(table).read({
      accountId: ACC,
      recipients: ['Gone@Example.org', 'fine@example.org'],
      tenantId: null,
      now: NOW,
    });
    expect(context.suppressed).toEqual(['Gone@Example.org']);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.keys).toEqual(
      expect.arrayContaining([
        keys.suppression(ACC, 'gone@example.org', null),
        erasedAddressKey(ACC, 'gone@example.org'),
        erasedAddressKey(ACC, 'fine@example.org'),
      ]),
    );
  });

  it("applies a tenant's erased list only to that tenant's sends", async () => {
    const { table } = fakeTable([erased('gone@example.org', ['TENANT#t1'])]);
    const reader = new SendContextReader(table);
    expect((await reader.read({ accountId: ACC, recipients: ['gone@example.org'], tenantId: 't1', now: NOW })).suppressed).toEqual([
      'gone@example.org',
    ]);
    expect((await reader.read({ accountId: ACC, recipients: ['gone@example.org'], tenantId: 't2', now: NOW })).suppressed).toEqual([]);
    expect((await reader.read({ accountId: ACC, recipients: ['gone@example.org'], tenantId: null, now: NOW })).suppressed).toEqual([]);
  });

  it('keeps an erased category opt-out for mail of that category only', async () => {
    const { table } = fakeTable([erased('gone@example.org', [], ['ACCOUNT#CATEGORY#newsletter'])]);
    const reader = new SendContextReader(table);
    const newsletter = await reader.read({
      accountId: ACC,
      recipients: ['gone@example.org'],
      tenantId: null,
      optOutCategory: 'newsletter',
      now: NOW,
    });
    expect(newsletter).toMatchObject({ suppressed: [], optedOut: ['gone@example.org'] });
    const product = await reader.read({
      accountId: ACC,
      recipients: ['gone@example.org'],
      tenantId: null,
      optOutCategory: 'product',
      now: NOW,
    });
    expect(product.optedOut).toEqual([]);
  });

  it("an erased address's hash is of its account: another account's send is not refused", async () => {
    const { table } = fakeTable([erased('gone@example.org', ['ACCOUNT'])]);
    const context = await new SendContextReader(table).read({
      accountId: 'acc_2',
      recipients: ['gone@example.org'],
      tenantId: null,
      now: NOW,
    });
    expect(context.suppressed).toEqual([]);
  });

  it("the send worker's check (findSuppressed) finds it too, in one BatchGetItem with the plain suppressions", async () => {
    const { table, calls } = fakeTable([
      erased('gone@example.org', ['ACCOUNT']),
      { ...keys.suppression(ACC, 'plain@example.org', null), email: 'plain@example.org' },
    ]);
    const found = await new SuppressionRepository(table).findSuppressed(ACC, null, [
      'gone@example.org',
      'plain@example.org',
      'fine@example.org',
    ]);
    expect(found.sort()).toEqual(['gone@example.org', 'plain@example.org']);
    expect(calls).toHaveLength(1);
  });
});
