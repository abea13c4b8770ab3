/**
 * The day counters of the stats worker (shared/usecases/reputation/aggregate-stats.ts): tenants' (every stats
 * field: keys.tenantStats), accounts' (sent, bounced, complained and their tenants' part: keys.accountStats)
 * and the deployment's (sent, bounced, complained, in DEPLOYMENT_STATS_SHARDS shard items per day summed on
 * read: keys.deploymentStats). One batch's counters go in ONE transaction whose ClientRequestToken derives
 * from the batch's records (as the outbox relay counts usage): a retried batch within DynamoDB's 10-minute
 * window changes nothing. The deployment's shard is chosen by the token, so a retry writes the same items.
 *
 * Rates by design: the account-day and tenant-day counters are kept in DAY_STATS_SHARDS items each and a batch
 * adds to the one its token picks, as the deployment's (in DEPLOYMENT_STATS_SHARDS): on AWS the table's stream
 * has about a shard per partition, each delivering its batches (one at a time per stream shard), so one item
 * per account and day would take every batch holding the account's records. One item takes 1,000 write units
 * a second, 500 transactional updates: an account's or a tenant's day takes about 8 x 500 = 4,000 batches a
 * second, the deployment's 16 x 500 = 8,000. Readers sum the shards with the unsharded item of before
 * 2026-11-26 (9 items a day).
 */
import { ACCOUNT_COUNTER_FIELDS, REPUTATION_FIELDS, type CounterDelta, type StatsCounter } from '../../domain/reputation/counters';
import { BOUNCE_CATEGORY_FIELDS, bounceCategoryCounts, type BounceCategoryField } from '../../domain/tenants/stats';
import type { BounceCategory } from '../../domain/bounces/bounce-category';
import { NO_FIGURES, type Figures } from '../../domain/reputation/figures';
import { tokenShard } from '../../lib/request-token';
import { batchGetItems } from './batch-get';
import { MAX_COUNTERS_PER_TRANSACTION } from './deferred-usage';
import { keys } from './keys';
import { transactWrite, type Table } from './table';

/** Shards of the deployment's day counters: no item is written by every batch of every account. */
export const DEPLOYMENT_STATS_SHARDS = 16;

/** Shards of each account's and each tenant's day counters: no item is written by every batch of one account. */
export const DAY_STATS_SHARDS = 8;

/** Counters are kept 400 days (the tenant stats window is 90; the brake reads 2 days). */
const KEEP_SECONDS = 400 * 86_400;

/** One day of an account: all its emails, and the part its tenants sent. */
export interface AccountDayFigures {
  all: Figures;
  tenants: Figures;
}

const TYPE_OF: Record<StatsCounter['kind'], string> = { tenant: 'tenant_stats', account: 'account_stats', deployment: 'deployment_stats' };

function counterKey(counter: StatsCounter, day: string, token: string): { PK: string; SK: string } {
  if (counter.kind === 'tenant') return keys.tenantStatsShard(counter.tenantId, day, tokenShard(token, DAY_STATS_SHARDS));
  if (counter.kind === 'account') return keys.accountStatsShard(counter.accountId, day, tokenShard(token, DAY_STATS_SHARDS));
  return keys.deploymentStats(day, tokenShard(token, DEPLOYMENT_STATS_SHARDS));
}

/** A day's items of one account's or tenant's counters: the unsharded one of before 2026-11-26, then its shards. */
export function dayStatsKeys(
  unsharded: { PK: string; SK: string },
  shard: (shard: number) => { PK: string; SK: string },
): { PK: string; SK: string }[] {
  return [unsharded, ...Array.from({ length: DAY_STATS_SHARDS }, (_, n) => shard(n))];
}

/** The sum of each numeric field over a day's items (absent items count nothing). */
export function summedItem(
  byPk: ReadonlyMap<string, Record<string, unknown>>,
  dayKeys: readonly { PK: string }[],
): Record<string, number> | undefined {
  const present = dayKeys.flatMap((key): Record<string, unknown>[] => {
    const item = byPk.get(key.PK);
    return item ? [item] : [];
  });
  if (present.length === 0) return undefined;
  const sum: Record<string, number> = {};
  for (const item of present)
    for (const [field, value] of Object.entries(item)) if (typeof value === 'number') sum[field] = (sum[field] ?? 0) + value;
  return sum;
}

const figuresOf = (item: Record<string, unknown> | undefined, prefix = ''): Figures =>
  item
    ? {
        sent: Number(item[`${prefix}sent`] ?? 0),
        bounced: Number(item[`${prefix}bounced`] ?? 0),
        complained: Number(item[`${prefix}complained`] ?? 0),
      }
    : { ...NO_FIGURES };

export class AccountStatsRepository {
  /** Distinct counter items (tenant-days, account-days, deployment-days) per call: one transaction's. */
  readonly maxPerCall: number = MAX_COUNTERS_PER_TRANSACTION;

  constructor(private readonly table: Table) {}

  /** Adds the deltas (distinct counters, at most `maxPerCall`) atomically; idempotent per `token` for 10 minutes. */
  async add(deltas: readonly CounterDelta[], token: string): Promise<void> {
    if (deltas.length === 0) return;
    if (deltas.length > this.maxPerCall) throw new Error(`at most ${this.maxPerCall} counters per call, got ${deltas.length}`);
    const TransactItems = deltas.map(({ counter, day, counts }) => {
      const fields = Object.entries(counts).filter(([, n]) => n !== 0);
      const names = Object.fromEntries(fields.map(([field], i) => [`#f${i}`, field]));
      const values = Object.fromEntries(fields.map(([, n], i) => [`:f${i}`, n]));
      const expiresAt = Math.floor(Date.parse(`${day}T00:00:00.000Z`) / 1000) + KEEP_SECONDS;
      return {
        Update: {
          TableName: this.table.name,
          Key: counterKey(counter, day, token),
          UpdateExpression: `ADD ${fields.map((_, i) => `#f${i} :f${i}`).join(', ')} SET #ttl = if_not_exists(#ttl, :ttl), #type = :type`,
          ExpressionAttributeNames: { ...names, '#ttl': 'ttl', '#type': 'type' },
          ExpressionAttributeValues: { ...values, ':ttl': expiresAt, ':type': TYPE_OF[counter.kind] },
        },
      };
    });
    await transactWrite(this.table, TransactItems, token);
  }

  /** Each day's figures of all the account's emails, its tenants' part and its emails by bounce category (in the order asked; zeros for days without an item): one batch read of 9 items a day. */
  async readDays(
    accountId: string,
    days: readonly string[],
  ): Promise<(AccountDayFigures & { day: string; categories: Record<BounceCategory, number> })[]> {
    const keysOf = (day: string) =>
      dayStatsKeys(keys.accountStats(accountId, day), (shard) => keys.accountStatsShard(accountId, day, shard));
    const items = await batchGetItems(this.table, days.flatMap(keysOf), { projection: ['PK', ...ACCOUNT_COUNTER_FIELDS] });
    const byPk = new Map(items.map((item) => [item.PK as string, item]));
    return days.map((day) => {
      const item = summedItem(byPk, keysOf(day));
      const counts = Object.fromEntries(BOUNCE_CATEGORY_FIELDS.map((field) => [field, Number(item?.[field] ?? 0)])) as Record<
        BounceCategoryField,
        number
      >;
      return { day, all: figuresOf(item), tenants: figuresOf(item, 'tenant_'), categories: bounceCategoryCounts(counts) };
    });
  }

  /** The account's {sent, bounced, complained} and its emails by bounce category, each day (readDays, below). */
  async read(accountId: string, days: readonly string[]): Promise<(Figures & { categories: Record<BounceCategory, number> })[]> {
    return (await this.readDays(accountId, days)).map((day) => ({ ...day.all, categories: day.categories }));
  }

  /** Each day's figures of all the account's emails and of its tenants' part (readDays, below). */
  async readSplit(accountId: string, days: readonly string[]): Promise<AccountDayFigures[]> {
    return (await this.readDays(accountId, days)).map((day) => ({ all: day.all, tenants: day.tenants }));
  }

  /** The deployment's figures of each day (its shards summed): one batch read of 16 items a day. */
  async readDeployment(days: readonly string[]): Promise<Figures[]> {
    const wanted = days.flatMap((day) => Array.from({ length: DEPLOYMENT_STATS_SHARDS }, (_, shard) => keys.deploymentStats(day, shard)));
    const items = await batchGetItems(this.table, wanted, { projection: ['PK', ...REPUTATION_FIELDS] });
    const byPk = new Map(items.map((item) => [item.PK as string, item]));
    return days.map((day) => {
      const total = { ...NO_FIGURES };
      for (let shard = 0; shard < DEPLOYMENT_STATS_SHARDS; shard++) {
        const figures = figuresOf(byPk.get(keys.deploymentStats(day, shard).PK));
        total.sent += figures.sent;
        total.bounced += figures.bounced;
        total.complained += figures.complained;
      }
      return total;
    });
  }
}
