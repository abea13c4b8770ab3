/**
 * The send workers' shared pace to SES's rate (shared/adapters/store/ses-send-budget.ts) against DynamoDB Local:
 * reservations racing on one item each get their own slot, spaced exactly by their recipients at the
 * rate, never two in one turn; high rates are split over shards.
 *
 * In a private copy of the table: the shared stack's send workers pace every send through these items (its
 * local SES has a quota), so reservations hours ahead in its own table held a sixth of every file's emails
 * for hours (1 in 18 shards each), and its sends would move these slots.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { budgetShards, ITEM_SENDS_PER_SECOND, SesSendBudget } from '#shared/adapters/store/ses-send-budget';
import { createDynamoClient } from '#shared/adapters/aws/dynamo-client';
import { loadConfig } from '#shared/config/config';
import { ensureTemplateTable } from '../support/template-table';
import { stack } from './harness/stack';

const tableName = `send-budget-test-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  stack();
  const config = loadConfig(process.env);
  await ensureTemplateTable(new DynamoDBClient({ region: config.region, endpoint: config.endpoints.dynamodb }), tableName);
});

/** The repository over this file's own table, with a chosen shard picker. */
const budget = (random?: () => number): SesSendBudget => {
  const config = loadConfig(process.env);
  return new SesSendBudget({ client: createDynamoClient(config), name: tableName }, random);
};

/** A budget whose DynamoDB calls are counted (each one a write: the budget only updates). */
function countedBudget(): { budget: SesSendBudget; calls: () => number } {
  const client = createDynamoClient(loadConfig(process.env));
  let calls = 0;
  const send = client.send.bind(client);
  client.send = ((command: Parameters<typeof send>[0]) => {
    calls += 1;
    return send(command);
  }) as typeof client.send;
  return { budget: new SesSendBudget({ client, name: tableName }), calls: () => calls };
}

describe('SES send budget (DynamoDB Local)', () => {
  it('gives 60 racing reservations 60 distinct slots, spaced by their recipients at the rate', async () => {
    const rate = 20; // recipients per second: 50 ms a recipient
    const now = Date.now() + 3_600_000; // later than anything reserved before: the budget is idle then
    const recipients = Array.from({ length: 60 }, (_, i) => 1 + (i % 3));
    const slots = await Promise.all(
      recipients.map((n) =>
        budget()
          .reserve(n, rate, now)
          .then(({ slotMs }) => ({ slotMs, n })),
      ),
    );
    slots.sort((a, b) => a.slotMs - b.slotMs);
    expect(slots[0]!.slotMs).toBe(now);
    for (let i = 1; i < slots.length; i++) expect(slots[i]!.slotMs - slots[i - 1]!.slotMs).toBeCloseTo((slots[i - 1]!.n * 1000) / rate, 6);
    const total = recipients.reduce((sum, n) => sum + n, 0);
    expect(await budget().backlogMs(rate, now)).toBeCloseTo((total * 1000) / rate, 6);
  });

  it('starts again from now once the budget has been idle', async () => {
    const later = Date.now() + 7_200_000;
    expect((await budget().reserve(1, 20, later)).slotMs).toBe(later);
    expect((await budget().reserve(1, 20, later)).slotMs).toBe(later + 50);
  });

  it('splits rates above what one item is given over shards, each at its share', async () => {
    expect(budgetShards(14)).toBe(1);
    expect(budgetShards(ITEM_SENDS_PER_SECOND)).toBe(1);
    expect(budgetShards(ITEM_SENDS_PER_SECOND + 1)).toBe(2);
    const rate = 3 * ITEM_SENDS_PER_SECOND; // 3 shards, 500/s each: 2 ms a recipient per shard
    const now = Date.now() + 10_800_000;
    const onShard = (shard: number) => budget(() => shard / 3 + 0.01);
    const slots = await Promise.all([0, 1, 2, 0, 1, 2].map((shard) => onShard(shard).reserve(1, rate, now)));
    // Each shard gives its two racing reservations now and now + 2 ms (which gets which is the race's).
    expect(slots.map((s) => s.slotMs - now).sort((a, b) => a - b)).toEqual([0, 0, 0, 2, 2, 2]);
  });
  it('takes one write a send on an idle budget and on a busy one, two only when another instance moved it to busy', async () => {
    const rate = 20; // 50 ms a recipient
    const start = Date.now() + 14_400_000; // later than anything the tests above reserved: idle
    const first = countedBudget();
    // Idle, this instance never looked: the idle case first, one write.
    expect((await first.budget.reserve(1, rate, start)).slotMs).toBe(start);
    expect(first.calls()).toBe(1);
    // Busy (its own tat is 50 ms ahead): the busy case first, one write each.
    expect((await first.budget.reserve(1, rate, start)).slotMs).toBe(start + 50);
    expect((await first.budget.reserve(2, rate, start + 10)).slotMs).toBe(start + 100);
    expect(first.calls()).toBe(3);
    // Idle again once the reserved time has passed: one write.
    const later = start + 1_000;
    expect((await first.budget.reserve(1, rate, later)).slotMs).toBe(later);
    expect(first.calls()).toBe(4);
    // Another instance, whose last look is older than now, finds the budget busy: its idle write is refused, then busy.
    const second = countedBudget();
    expect((await second.budget.reserve(1, rate, later)).slotMs).toBe(later + 50);
    expect(second.calls()).toBe(2);
    // And from then on it knows: one write.
    expect((await second.budget.reserve(1, rate, later)).slotMs).toBe(later + 100);
    expect(second.calls()).toBe(3);
  });
});
