/**
 * The day counters of the stats worker (shared/usecases/reputation/aggregate-stats.ts): tenants' (every stats
 * field: keys.tenantStats), accounts' (sent, bounced, complained and their tenants' part: keys.accountStats)
 * and the deployment's (sent, bounced, complained, in DEPLOYMENT_STATS_SHARDS shard items per day summed on
 * read: keys.deploymentStats). One batch's counters go in ONE transaction whose ClientRequestToken derives
 * from the batch's records (as the outbox relay counts usage): a retried batch within DynamoDB's 10-minute
 * window changes nothing. The deployment's shard is chosen by the token, so a retry writes the same items.
 *
 * Rates by design: an account-day item is written at most once per batch of a stream shard (the worker's
 * invocations of one stream shard run one at a time), whatever the account sends; a deployment shard item
 * gets 1/16 of all batches of the table's stream, so one DynamoDB partition's 1,000 write units a second hold
 * ~8,000 batches a second for the whole deployment (2 units each: a transactional write of a small item).
 */
import { ACCOUNT_COUNTER_FIELDS, REPUTATION_FIELDS, type CounterDelta, type StatsCounter } from '../../domain/reputation/counters';
import { BOUNCE_CATEGORY_FIELDS, bounceCategoryCounts, type BounceCategoryField } from '../../domain/tenants/stats';
import type { BounceCategory } from '../../domain/bounces/bounce-category';
import { NO_FIGURES, type Figures } from '../../domain/reputation/figures';
import { createHash } from 'node:crypto';
import { batchGetItems } from './batch-get';
import { MAX_COUNTERS_PER_TRANSACTION } from './deferred-usage';
import { keys } from './keys';
import { transactWrite, type Table } from './table';

/** Shards of the deployment's day counters: no item is written by every batch of every account. */
export const DEPLOYMENT_STATS_SHARDS = 16;

/** Counters are kept 400 days (the tenant stats window is 90; the brake reads 2 days). */
const KEEP_SECONDS = 400 * 86_400;

/** One day of an account: all its emails, and the part its tenants sent. */
export interface AccountDayFigures {
  all: Figures;
  tenants: Figures;
}

const TYPE_OF: Record<StatsCounter['kind'], string> = { tenant: 'tenant_stats', account: 'account_stats', deployment: 'deployment_stats' };

function shardOf(token: string): number {
  return createHash('sha256').update(token).digest().readUInt32BE(0) % DEPLOYMENT_STATS_SHARDS;
}

function counterKey(counter: StatsCounter, day: string, token: string): { PK: string; SK: string } {
  if (counter.kind === 'tenant') return keys.tenantStats(counter.tenantId, day);
  if (counter.kind === 'account') return keys.accountStats(counter.accountId, day);
  return keys.deploymentStats(day, shardOf(token));
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

  /** Each day's figures of all the account's emails, its tenants' part and its emails by bounce category (in the order asked; zeros for days without an item): one batch read. */
  async readDays(
    accountId: string,
    days: readonly string[],
  ): Promise<(AccountDayFigures & { day: string; categories: Record<BounceCategory, number> })[]> {
    const items = await batchGetItems(
      this.table,
      days.map((day) => keys.accountStats(accountId, day)),
      { projection: ['PK', ...ACCOUNT_COUNTER_FIELDS] },
    );
    const byPk = new Map(items.map((item) => [item.PK as string, item]));
    return days.map((day) => {
      const item = byPk.get(keys.accountStats(accountId, day).PK);
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
