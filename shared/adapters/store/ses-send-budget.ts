/**
 * The send workers' shared pace to SES's maximum send rate (recipients per second), in the table, so that
 * every worker of every Lambda instance draws from one budget (docs/deploy.md, "SES quota").
 *
 * The budget is a GCRA (a token bucket written as one number): `tat`, the time (epoch ms) at which
 * everything reserved so far has been paid for at the rate. A send of n recipients reserves the slot
 * max(tat, now) and moves tat n/rate seconds on; the caller sends at its slot (waiting, or holding the
 * email until then). Both moves are single conditional writes, so however many workers race, DynamoDB
 * hands out each slot once and never more than the rate: no read-then-write.
 *
 *   busy:  SET tat = tat + :cost   IF tat >= :now        (the slot is the old tat)
 *   idle:  SET tat = :now + :cost  IF no tat OR tat < :now (the slot is now)
 *
 * Which case to try first comes from the last `tat` this instance saw on the shard: tat only moves forward
 * (both cases raise it), so a remembered tat still ahead of now means busy for certain, and one behind it
 * (or none yet) most likely idle. So a send takes one write whether the budget is idle or busy, two only when
 * another instance's sends moved it from idle to busy since this one last looked (the first write refused).
 * DynamoDB gives one partition
 * 1,000 write units a second (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html),
 * so one item is given at most ITEM_SENDS_PER_SECOND sends a second: at SES rates above that, the
 * budget is split into shards of their own partitions, each paced at its share of the rate, and a send
 * draws from one at random.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys';
import { isConditionFailure, type Table } from './table';

/** The sends one budget item is given a second: half a partition's 1,000 writes, leaving room for refused first writes (idle to busy). */
export const ITEM_SENDS_PER_SECOND = 500;

/** How many times a reservation tries both cases when the other case won the race in between (each try is one write). */
const MAX_ATTEMPTS = 4;

export function budgetShards(ratePerSecond: number): number {
  return Math.max(1, Math.ceil(ratePerSecond / ITEM_SENDS_PER_SECOND));
}

export interface SendSlot {
  /** When the send may go out (epoch ms): now, or later when the budget is spoken for until then. */
  slotMs: number;
}

export class SesSendBudget {
  /** The latest tat this instance wrote or was answered, by shard (a lower bound of the item's: tat only grows). */
  private readonly seenTat = new Map<number, number>();

  constructor(
    private readonly table: Table,
    private readonly random: () => number = Math.random,
  ) {}

  /** Reserves the next slot for a send of `recipients` recipients at `ratePerSecond` (recipients per second). */
  async reserve(recipients: number, ratePerSecond: number, nowMs: number): Promise<SendSlot> {
    const shards = budgetShards(ratePerSecond);
    const shard = Math.floor(this.random() * shards);
    const costMs = (Math.max(1, recipients) * 1000 * shards) / ratePerSecond;
    const Key = keys.sesSendBudget(shard);
    const busy = async (): Promise<SendSlot> => {
      const answer = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key,
          UpdateExpression: 'SET tat = tat + :cost',
          ConditionExpression: 'tat >= :now',
          ExpressionAttributeValues: { ':cost': costMs, ':now': nowMs },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      const tat = Number(answer.Attributes?.tat);
      this.saw(shard, tat);
      return { slotMs: tat - costMs };
    };
    const idle = async (): Promise<SendSlot> => {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key,
          UpdateExpression: 'SET tat = :next',
          ConditionExpression: 'attribute_not_exists(tat) OR tat < :now',
          ExpressionAttributeValues: { ':next': nowMs + costMs, ':now': nowMs },
        }),
      );
      this.saw(shard, nowMs + costMs);
      return { slotMs: nowMs };
    };
    // Certainly busy when a tat this instance saw is still ahead; else most likely idle.
    const cases = (this.seenTat.get(shard) ?? Number.NEGATIVE_INFINITY) >= nowMs ? [busy, idle] : [idle, busy];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      for (const reserveIn of cases) {
        try {
          return await reserveIn();
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
        }
      }
    }
    throw new Error('SES send budget: too many concurrent reservations, try again');
  }

  private saw(shard: number, tat: number): void {
    if (Number.isFinite(tat) && tat > (this.seenTat.get(shard) ?? Number.NEGATIVE_INFINITY)) this.seenTat.set(shard, tat);
  }

  /** How far ahead the budget is spoken for (ms; 0 when idle): the backlog of sends waiting for the rate. */
  async backlogMs(ratePerSecond: number, nowMs: number): Promise<number> {
    return Math.max(0, (await this.reservedUntil(ratePerSecond)) - nowMs);
  }

  /** The latest time (epoch ms) any shard's turns are reserved until; 0 when nothing was ever reserved. */
  async reservedUntil(ratePerSecond: number): Promise<number> {
    const shards = budgetShards(ratePerSecond);
    const tats = await Promise.all(
      Array.from({ length: shards }, async (_, shard) => {
        const item = await this.table.client.send(
          new GetCommand({ TableName: this.table.name, Key: keys.sesSendBudget(shard), ConsistentRead: true }),
        );
        return typeof item.Item?.tat === 'number' ? item.Item.tat : 0;
      }),
    );
    return Math.max(0, ...tats);
  }
}
