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
import { AccountStatsRepository } from '#shared/adapters/store/account-stats';
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
});
