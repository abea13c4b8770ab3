/**
 * The active automations of an event kept for a moment per process (AutomationRepository with a TtlCache:
 * HOT_LOOKUPS_CACHE_MS), over a fake DynamoDB client holding the items in a map (Query by PK, BatchGetItem,
 * TransactWriteItems' Puts and Deletes; conditions are not this test's subject): a pointer partition is read
 * once per ttl; the process that changes an automation forgets its partitions at once; another process sees
 * the change when its ttl has passed.
 */
import { BatchGetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { AutomationRepository } from '#shared/adapters/store/automations';
import type { Table } from '#shared/adapters/store/table';
import type { Automation } from '#shared/domain/automations/automation';
import { TtlCache } from '#shared/lib/ttl-cache';

function fakeTable() {
  const items = new Map<string, Record<string, any>>();
  const id = (key: { PK: unknown; SK: unknown }) => `${key.PK}|${key.SK}`;
  const queries: string[] = [];
  const client = {
    send: async (command: unknown) => {
      if (command instanceof QueryCommand) {
        const pk = command.input.ExpressionAttributeValues![':pk'] as string;
        queries.push(pk);
        return { Items: [...items.values()].filter((item) => item.PK === pk) };
      }
      if (command instanceof BatchGetCommand) {
        const request = Object.values(command.input.RequestItems!)[0]!;
        return { Responses: { main: request.Keys!.flatMap((key) => (items.has(id(key as any)) ? [items.get(id(key as any))!] : [])) } };
      }
      if (command instanceof TransactWriteCommand) {
        for (const action of command.input.TransactItems!) {
          if (action.Put) items.set(id(action.Put.Item as any), action.Put.Item as Record<string, any>);
          else if (action.Delete) items.delete(id(action.Delete.Key as any));
        }
        return {};
      }
      throw new Error('unexpected command');
    },
  };
  return { table: { client, name: 'main' } as unknown as Table, queries };
}

const automation = (status: Automation['status']): Automation =>
  ({
    id: 'auto_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
    account_id: 'acc_1',
    name: 'welcome',
    status,
    trigger: { event: 'user.signup', cancel_on_events: ['user.deleted'] },
    steps: [],
    version: 1,
    created_at: '2026-11-25T00:00:00.000Z',
    updated_at: '2026-11-25T00:00:00.000Z',
    activated_at: status === 'active' ? '2026-11-25T00:00:00.000Z' : null,
  }) as unknown as Automation;

describe("an event's active automations, kept HOT_LOOKUPS_CACHE_MS per process", () => {
  it('reads a pointer partition once per ttl', async () => {
    const { table, queries } = fakeTable();
    let now = 0;
    const repository = new AutomationRepository(table, new TtlCache(1000, 100, () => now));
    expect((await repository.create(automation('active'), 10)).kind).toBe('created');
    expect((await repository.activeByTrigger('acc_1', 'user.signup')).map((a) => a.id)).toEqual([automation('active').id]);
    now += 999;
    expect(await repository.activeByTrigger('acc_1', 'user.signup')).toHaveLength(1);
    expect(queries.filter((pk) => pk.startsWith('AUTOTRIGGER#'))).toHaveLength(1);
    now += 2;
    await repository.activeByTrigger('acc_1', 'user.signup');
    expect(queries.filter((pk) => pk.startsWith('AUTOTRIGGER#'))).toHaveLength(2);
  });

  it('forgets at once in the process that paused it; another process sees it when its ttl has passed', async () => {
    const { table } = fakeTable();
    let now = 0;
    const clock = () => now;
    const api = new AutomationRepository(table, new TtlCache(1000, 100, clock));
    const other = new AutomationRepository(table, new TtlCache(1000, 100, clock));
    expect((await api.create(automation('active'), 10)).kind).toBe('created');
    expect(await api.activeByCancelEvent('acc_1', 'user.deleted')).toHaveLength(1);
    expect(await other.activeByTrigger('acc_1', 'user.signup')).toHaveLength(1);
    expect((await api.save(automation('active'), automation('paused'))).kind).toBe('saved');
    expect(await api.activeByCancelEvent('acc_1', 'user.deleted')).toHaveLength(0);
    expect(await api.activeByTrigger('acc_1', 'user.signup')).toHaveLength(0);
    expect(await other.activeByTrigger('acc_1', 'user.signup')).toHaveLength(1);
    now += 1001;
    expect(await other.activeByTrigger('acc_1', 'user.signup')).toHaveLength(0);
  });

  it('reads every time by default', async () => {
    const { table, queries } = fakeTable();
    const repository = new AutomationRepository(table);
    expect((await repository.create(automation('active'), 10)).kind).toBe('created');
    await repository.activeByTrigger('acc_1', 'user.signup');
    await repository.activeByTrigger('acc_1', 'user.signup');
    expect(queries).toHaveLength(2);
  });
});
