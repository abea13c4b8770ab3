/**
 * Accepting a batch's emails together (shared/adapters/store/emails/accept-together.ts): their address references,
 * then their items, in BatchWriteItems of 25; each item what accept() would have put (without its condition:
 * the ids are the send core's own); a request that needs a transaction accepted on its own; an email DynamoDB
 * leaves unprocessed (which DynamoDB Local never does, so the client here answers as DynamoDB may) or whose
 * call fails answered with an error while the others are accepted. The batch's end to end, erasure included:
 * test/integration/erasure.test.ts and idempotency-batch.test.ts.
 */
import { BatchWriteCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { EmailRepository } from '#shared/adapters/store/emails/repository';
import type { AcceptRequest } from '#shared/adapters/store/emails/accept-request';
import { usageReservations } from '#shared/domain/accounts/limits';
import type { Email } from '#shared/domain/emails/email';
import { queuedEmail } from './queued-email';

const NOW = new Date('2026-11-28T10:00:00.000Z');

const email = (n: number): Email =>
  queuedEmail(NOW, { id: `msg_${String(n).padStart(3, '0')}`, to: [`to${n}@example.com`], reply_to: ['reply@example.com'] });

const request = (n: number, extra: Partial<AcceptRequest> = {}): AcceptRequest => ({
  email: email(n),
  body: { inline: { text: 't' } },
  count: 1,
  capped: [],
  uncapped: usageReservations('pro', false, NOW).filter((r) => r.limit === null),
  retentionDays: 30,
  ...extra,
});

type Item = Record<string, unknown>;

/**
 * A client recording each call in order; `unprocessed(item)` says whether DynamoDB leaves an email's put
 * unprocessed (every attempt), `failEmails(call)` whether the n-th BatchWriteItem of emails fails outright.
 */
function recordingTable(options: { unprocessed?: (item: Item) => boolean; failEmails?: (call: number) => boolean } = {}) {
  const calls: { kind: string; items: Item[] }[] = [];
  let emailCalls = 0;
  const client = {
    send: async (command: unknown) => {
      if (command instanceof BatchWriteCommand) {
        const requests = Object.values(command.input.RequestItems ?? {})[0] ?? [];
        const items = requests.map((r) => r.PutRequest!.Item as Item);
        const kind = items.every((item) => item.type === 'address_ref') ? 'refs' : 'emails';
        calls.push({ kind, items });
        if (kind === 'emails' && options.failEmails?.(++emailCalls)) throw new Error('network');
        const left = requests.filter((r) => kind === 'emails' && options.unprocessed?.(r.PutRequest!.Item as Item));
        return { UnprocessedItems: left.length ? { T: left } : {} };
      }
      if (command instanceof PutCommand) calls.push({ kind: 'put', items: [command.input.Item as Item] });
      else if (command instanceof TransactWriteCommand) calls.push({ kind: 'transaction', items: [] });
      else throw new Error(`unexpected ${String(command)}`);
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  // The idempotency record's put, as the store makes it (a conditional Put in the transaction).
  const idempotencyStore = { putItem: () => ({ Put: { TableName: 'T', Item: { PK: 'IDEMPOTENCY#acc_1#k', SK: 'RECORD' } } }) };
  return { emails: new EmailRepository({ client, name: 'T' }, idempotencyStore), calls };
}

describe("accepting a batch's emails together", () => {
  it('writes 30 emails and their 60 references in 5 BatchWriteItems (references first) instead of 30 PutItems and 30 BatchWriteItems, each item as accept() puts it', async () => {
    const { emails, calls } = recordingTable();
    const requests = Array.from({ length: 30 }, (_, n) => request(n));
    const results = await emails.acceptTogether(requests);
    expect(results.every((result) => result.ok && result.outcome.kind === 'accepted')).toBe(true);
    // 60 references (To and Reply-To of each): 25, 25, 10; then 30 emails: 25, 5.
    expect(calls.map((call) => [call.kind, call.items.length])).toEqual([
      ['refs', 25],
      ['refs', 25],
      ['refs', 10],
      ['emails', 25],
      ['emails', 5],
    ]);
    const written = calls.filter((call) => call.kind === 'emails').flatMap((call) => call.items);
    expect(written.map((item) => item.PK)).toEqual(requests.map((r) => `EMAIL#${r.email.id}`));

    // The same item accept() puts for the same request.
    const alone = recordingTable();
    await alone.emails.accept(request(7));
    expect(alone.calls.find((call) => call.kind === 'put')!.items[0]).toEqual(written[7]);
  });

  it('accepts a request with capped reservations or an idempotency record on its own (its transaction), the others together', async () => {
    const { emails, calls } = recordingTable();
    const capped = usageReservations('free', false, NOW).filter((r) => r.limit !== null);
    const idempotency = { accountId: 'acc_1', key: 'k', record: {} as never, now: NOW };
    const results = await emails.acceptTogether([request(0), request(1, { capped }), request(2, { idempotency }), request(3)]);
    expect(results.map((result) => result.ok && result.outcome.kind)).toEqual(['accepted', 'accepted', 'accepted', 'accepted']);
    expect(calls.filter((call) => call.kind === 'transaction')).toHaveLength(2);
    expect(calls.filter((call) => call.kind === 'emails').flatMap((call) => call.items.map((item) => item.PK))).toEqual([
      'EMAIL#msg_000',
      'EMAIL#msg_003',
    ]);
  });

  it('answers an email DynamoDB keeps leaving unprocessed with an error, after retrying it, and accepts the others', async () => {
    jest.useFakeTimers();
    try {
      const { emails, calls } = recordingTable({ unprocessed: (item) => item.PK === 'EMAIL#msg_002' });
      const pending = emails.acceptTogether(Array.from({ length: 4 }, (_, n) => request(n)));
      await jest.runAllTimersAsync();
      const results = await pending;
      expect(results.map((result) => result.ok)).toEqual([true, true, false, true]);
      // The first call with all four, then seven retries of the one left.
      const emailCalls = calls.filter((call) => call.kind === 'emails');
      expect(emailCalls.map((call) => call.items.length)).toEqual([4, 1, 1, 1, 1, 1, 1, 1]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('answers the emails of a call that failed outright with its error; those of the other calls are accepted', async () => {
    const { emails } = recordingTable({ failEmails: (call) => call === 2 });
    const results = await emails.acceptTogether(Array.from({ length: 30 }, (_, n) => request(n)));
    expect(results.filter((result) => result.ok)).toHaveLength(25);
    const failed = results.filter((result) => !result.ok);
    expect(failed).toHaveLength(5);
    expect(failed[0]).toMatchObject({ ok: false, error: { message: 'network' } });
  });

  it('stores no email when its references could not be written: each is answered with the error', async () => {
    const calls: string[] = [];
    const client = {
      send: async (command: unknown) => {
        if (!(command instanceof BatchWriteCommand)) throw new Error('unexpected');
        const requests = Object.values(command.input.RequestItems ?? {})[0] ?? [];
        const refs = requests.every((r) => r.PutRequest!.Item!.type === 'address_ref');
        calls.push(refs ? 'refs' : 'emails');
        if (refs) throw new Error('throttled');
        return {};
      },
    } as unknown as DynamoDBDocumentClient;
    const results = await new EmailRepository({ client, name: 'T' }).acceptTogether([request(0), request(1)]);
    expect(results).toEqual([
      { ok: false, error: expect.objectContaining({ message: 'throttled' }) },
      { ok: false, error: expect.objectContaining({ message: 'throttled' }) },
    ]);
    expect(calls).toEqual(['refs']);
  });
});
