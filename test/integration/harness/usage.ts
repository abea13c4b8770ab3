/**
 * Reading and presetting usage counters in the real table (fixtures for limit tests). Capped counters are
 * sharded (shared/domain/accounts/limits.ts): `setUsage` spreads a count over the shards as sends would
 * fill them, and `usage` sums the shards and the unsharded (uncapped, counted by the outbox relay) item.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { PLANS, SANDBOX_LIMITS, type PlanName } from '#shared/domain/accounts/plans';
import { shardCaps, type UsageScope } from '#shared/domain/accounts/limits';
import { keys } from '#shared/adapters/store/keys';
import { stack } from './stack';
import { DEFAULT_WAIT_MS, pollDelayMs } from '../../support/wait';

export function documentClient() {
  const { info } = stack();
  return DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: info.endpoints.dynamodb, region: info.region }));
}

export const today = () => new Date().toISOString().slice(0, 10);
export const month = () => today().slice(0, 7);

/** The limit of a counter for a plan (null: uncapped, an unsharded item). */
export function limitOf(plan: PlanName, scope: string, period: 'DAY' | 'MONTH'): number | null {
  if (scope === 'SANDBOX') return period === 'DAY' ? SANDBOX_LIMITS.dailyEmails : SANDBOX_LIMITS.monthlyEmails;
  const limits = PLANS[plan];
  if (period === 'DAY') return limits.dailyEmails;
  return limits.monthlyHardCap ? limits.monthlyEmails : null;
}

async function accountPlan(accountId: string): Promise<PlanName> {
  return (await stack().services.accounts.get(accountId))!.plan;
}

export async function setUsage(accountId: string, scope: string, period: 'DAY' | 'MONTH', value: string, count: number) {
  const limit = limitOf(await accountPlan(accountId), scope, period);
  if (limit !== null) return fillShards(accountId, scope, period, value, limit, count);
  const client = documentClient();
  await client.send(
    new PutCommand({ TableName: stack().info.env.TABLE_NAME, Item: { ...keys.usage(accountId, scope, period, value), count } }),
  );
  client.destroy();
}

/**
 * Writes a capped counter's shards (caps of `limit`) so that `used` places are taken, shard after shard as
 * sends fill them (the last shard takes any excess). For counters whose limit is not the plan's: a tenant's
 * ramp or daily_limit (`TENANT:<id>:<counter>`).
 */
export async function fillShards(accountId: string, scope: string, period: 'DAY' | 'MONTH', value: string, limit: number, used: number) {
  const client = documentClient();
  const TableName = stack().info.env.TABLE_NAME;
  let left = used;
  const caps = shardCaps(limit);
  for (let shard = 0; shard < caps.length; shard++) {
    const take = shard === caps.length - 1 ? left : Math.min(left, caps[shard]!);
    left -= take;
    await client.send(new PutCommand({ TableName, Item: { ...keys.usageShard(accountId, scope, period, value, shard), count: take } }));
  }
  client.destroy();
}

export async function usage(accountId: string, scope: string, period: 'DAY' | 'MONTH', value: string): Promise<number> {
  const limit = limitOf(await accountPlan(accountId), scope, period);
  // What every reader sums: the capped shards, the unsharded item, the outbox relay's shards, a legacy item.
  return stack().services.usage.current(accountId, { scope: scope as UsageScope, period, periodValue: value, limit });
}

/**
 * Usage once the outbox relay has counted what it was handed (uncapped counters are counted asynchronously).
 * The relay reads the one stream of the shared stack in order: in a whole run it may first relay another
 * file's burst, so the wait is the harness's usual 30 s (5 s failed once in CI, stop 74).
 */
export async function settledUsage(
  accountId: string,
  scope: string,
  period: 'DAY' | 'MONTH',
  value: string,
  expected: number,
  timeoutMs = DEFAULT_WAIT_MS,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    const current = await usage(accountId, scope, period, value);
    if (current === expected || Date.now() > deadline) return current;
    // Each look reads every shard of the counter (a BatchGetItem of dozens of keys): less often as it waits.
    await new Promise((resolve) => setTimeout(resolve, pollDelayMs(50, attempt)));
  }
}
