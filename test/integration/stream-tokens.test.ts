/**
 * Two stream workers read the same records of the table's stream and each writes what they mean in one
 * transaction with a ClientRequestToken naming the records (shared/lib/request-token.ts): the outbox relay its
 * usage counters, tenant-stats its day counters. Against DynamoDB Local: with a token of each writer's own,
 * both transactions go through (and each again, unchanged, when its batch is delivered again); one token for
 * both is refused for the second writer (IdempotentParameterMismatchException), on every retry: the failure
 * that made tenant-stats give up on a batch of tenant emails accepted together.
 */
import { DeferredUsageCounters, usageCounterId } from '#shared/adapters/store/deferred-usage';
import { keys } from '#shared/adapters/store/keys';
import { AccountStatsRepository, DAY_STATS_SHARDS } from '#shared/adapters/store/account-stats';
import { TenantStatsRepository } from '#shared/adapters/store/tenant-stats';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { newId } from '#shared/domain/ids';
import { usageToken } from '#shared/lib/request-token';
import { stack } from './harness/stack';
import { createDynamoClient } from '#shared/adapters/aws/dynamo-client';
import { loadConfig } from '#shared/config/config';

describe('the stream writers’ transaction tokens', () => {
  const records = () => [newId('evt'), newId('evt'), newId('evt')];
  const writers = () => {
    stack();
    const config = loadConfig(process.env);
    const table = { client: createDynamoClient(config), name: config.tableName };
    const account = newId('acc');
    const tenant = newId('ten');
    const usage = new DeferredUsageCounters(table);
    const stats = new AccountStatsRepository(table);
    const expiresAt = Math.floor(Date.now() / 1000) + 86_400;
    return {
      addUsage: (token: string) =>
        usage.add([{ counter: usageCounterId(keys.usage(account, 'PLAN', 'DAY', '2026-11-25')), count: 3, expiresAt }], token),
      addStats: (token: string) =>
        stats.add(
          [
            { counter: { kind: 'tenant', tenantId: tenant }, day: '2026-11-25', counts: { total: 3, queued: 3 } },
            { counter: { kind: 'account', accountId: account }, day: '2026-11-25', counts: { sent: 3, tenant_sent: 3 } },
            { counter: { kind: 'deployment' }, day: '2026-11-25', counts: { sent: 3 } },
          ],
          token,
        ),
    };
  };

  it('lets both writers of the same records through, each with its own token, and each again unchanged', async () => {
    const ids = records();
    const { addUsage, addStats } = writers();
    await addUsage(usageToken('usage', ids));
    await addStats(usageToken('stats', ids));
    // A batch delivered again: the same token, the same parameters, nothing written twice.
    await addUsage(usageToken('usage', ids));
    await addStats(usageToken('stats', ids));
  });

  it('refuses one token shared by both writers (what the tokens were before the purpose)', async () => {
    const shared = usageToken('usage', records());
    const { addUsage, addStats } = writers();
    await addUsage(shared);
    await expect(addStats(shared)).rejects.toMatchObject({ name: 'IdempotentParameterMismatchException' });
  });

  it("spreads one account's and one tenant's day counters over their shards: a burst of batches writes no item more than 3x its share, and readers sum them", async () => {
    stack();
    const config = loadConfig(process.env);
    const table = { client: createDynamoClient(config), name: config.tableName };
    const stats = new AccountStatsRepository(table);
    const account = newId('acc');
    const tenant = newId('ten');
    const day = '2026-11-26';
    const batches = 96;
    for (let i = 0; i < batches; i++)
      await stats.add(
        [
          { counter: { kind: 'tenant', tenantId: tenant }, day, counts: { total: 1, sent: 1 } },
          { counter: { kind: 'account', accountId: account }, day, counts: { sent: 1, tenant_sent: 1 } },
        ],
        usageToken('stats', [newId('evt')]),
      );
    const perShard = async (key: (shard: number) => { PK: string; SK: string }) =>
      Promise.all(
        Array.from({ length: DAY_STATS_SHARDS }, async (_, shard) =>
          Number(
            (await table.client.send(new GetCommand({ TableName: table.name, Key: key(shard), ConsistentRead: true }))).Item?.sent ?? 0,
          ),
        ),
      );
    for (const counts of [
      await perShard((n) => keys.accountStatsShard(account, day, n)),
      await perShard((n) => keys.tenantStatsShard(tenant, day, n)),
    ]) {
      expect(counts.reduce((sum, n) => sum + n, 0)).toBe(batches);
      // One item per account and day took all 96 before; the share of each of 8 is 12.
      expect(Math.max(...counts)).toBeLessThanOrEqual(36);
    }
    expect((await stats.readSplit(account, [day]))[0]).toMatchObject({ all: { sent: batches }, tenants: { sent: batches } });
    expect((await new TenantStatsRepository(table).read(tenant, [day]))[0]).toMatchObject({ total: batches, sent: batches });
  });
});
