/**
 * EmailRepository.accept (shared/adapters/store/emails/accept.ts) when other sends write the same usage shards at
 * the same moment. DynamoDB cancels a transaction touching an item another transaction is writing
 * (`TransactionConflict`, https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-conflict-handling);
 * DynamoDB Local never does, so the client here answers as DynamoDB does. A conflict is contention, not a
 * failure: the send tries again until it is accepted or its cap is reached (429), never a 503 while places
 * remain within its attempts. The races themselves run for real in test/integration/cap-edges.test.ts.
 */
import { BatchGetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { EmailRepository } from '#shared/adapters/store/emails/repository';
import { usageReservations } from '#shared/domain/accounts/limits';
import type { Email } from '#shared/domain/emails/email';
import { queuedEmail } from './queued-email';

const NOW = new Date('2026-11-26T10:00:00.000Z');

const email = (): Email => queuedEmail(NOW);

/** The free plan's capped counters (daily 100, monthly 3,000), as the send core hands them over. */
const capped = usageReservations('free', false, NOW).filter((r) => r.limit !== null);

const cancelled = (codes: string[]) =>
  Object.assign(new Error('Transaction cancelled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

/** A client whose transactions answer `transact(n)` (the n-th, from 1) and whose shards hold `shardCount` each. */
function repository(transact: (n: number) => Error | null, shardCount: (pk: string) => number) {
  let transactions = 0;
  const client = {
    send: async (command: unknown) => {
      if (command instanceof TransactWriteCommand) {
        const error = transact(++transactions);
        if (error) throw error;
        return {};
      }
      if (command instanceof BatchGetCommand) {
        const keys = Object.values(command.input.RequestItems!)[0]!.Keys as { PK: string }[];
        return { Responses: { table: keys.map((key) => ({ PK: key.PK, count: shardCount(key.PK) })) } };
      }
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  return { emails: new EmailRepository({ client, name: 'table' }), transactions: () => transactions };
}

const accept = (emails: EmailRepository) =>
  emails.accept({ email: email(), body: { inline: { text: 't' } }, count: 1, capped, uncapped: [], retentionDays: 30 });

describe('accepting an email while other sends write the same usage shards', () => {
  it('tries a transaction that conflicted past its quick retries again, and accepts it', async () => {
    // Seven conflicts in a row: more than transactWrite's own five quick tries.
    const { emails, transactions } = repository(
      (n) => (n <= 7 ? cancelled(['None', 'TransactionConflict', 'None']) : null),
      () => 0,
    );
    expect((await accept(emails)).kind).toBe('accepted');
    expect(transactions()).toBe(8);
  });

  it('re-plans the refused reservation and waits out the conflicting one when both happen at once', async () => {
    const { emails, transactions } = repository(
      (n) => (n === 1 ? cancelled(['None', 'ConditionalCheckFailed', 'TransactionConflict']) : null),
      () => 0,
    );
    expect((await accept(emails)).kind).toBe('accepted');
    expect(transactions()).toBe(2);
  });

  it('answers limit_reached, not an error, when the conflicts outlast its attempts and the cap has no room left', async () => {
    jest.useFakeTimers();
    try {
      const daily = capped.find((r) => r.period === 'DAY')!;
      // Daily shards full (13 or 12 of 100 each); the monthly ones empty.
      const full = (pk: string) => (pk.includes(`#DAY#${daily.periodValue}#`) ? (Number(pk.split('#').pop()) < 4 ? 13 : 12) : 0);
      const { emails } = repository(() => cancelled(['None', 'TransactionConflict', 'TransactionConflict']), full);
      const outcome = accept(emails);
      await jest.runAllTimersAsync();
      expect(await outcome).toMatchObject({ kind: 'limit_reached', reservation: { scope: 'PLAN', period: 'DAY', limit: 100 }, used: 100 });
    } finally {
      jest.useRealTimers();
    }
  });

  it('a condition failing on the email itself is not contention: its id exists (a caller-chosen id sent before), one attempt', async () => {
    const { emails, transactions } = repository(
      () => cancelled(['ConditionalCheckFailed', 'None', 'None']),
      () => 0,
    );
    expect(await accept(emails)).toEqual({ kind: 'email_exists' });
    expect(transactions()).toBe(1);
  });
});
