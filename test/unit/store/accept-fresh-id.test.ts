/**
 * Accepting one email whose id the send core has just made (AcceptRequest.freshId;
 * shared/adapters/store/emails/accept.ts): when its acceptance is its item alone, the item goes in ONE
 * BatchWriteItem with its address references, unconditionally (no email can have a fresh id), where a
 * conditional PutItem and a BatchWriteItem were two calls. A caller-chosen id (an automation step's) keeps the
 * conditional PutItem (its `email_exists`), and an acceptance with capped places or an idempotency record keeps
 * its transaction. End to end on DynamoDB Local: every send of the integration tests, the erasure's included
 * (test/integration/erasure.test.ts finds each email through these references).
 */
import { BatchWriteCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AcceptRequest } from '#shared/adapters/store/emails/accept-request';
import { EmailRepository } from '#shared/adapters/store/emails/repository';
import { usageReservations } from '#shared/domain/accounts/limits';
import { queuedEmail } from './queued-email';

const NOW = new Date('2026-11-29T10:00:00.000Z');

const request = (extra: Partial<AcceptRequest> = {}): AcceptRequest => ({
  email: queuedEmail(NOW, { id: 'msg_001', to: ['to@example.com', 'two@example.com'], reply_to: ['reply@example.com'] }),
  body: { inline: { text: 't' } },
  count: 2,
  capped: [],
  uncapped: usageReservations('pro', false, NOW).filter((r) => r.limit === null),
  retentionDays: 30,
  ...extra,
});

type Call = { kind: string; items: Record<string, unknown>[]; condition?: string };

function recordingTable(options: { putRefused?: boolean } = {}) {
  const calls: Call[] = [];
  const client = {
    send: async (command: unknown) => {
      if (command instanceof BatchWriteCommand) {
        const requests = Object.values(command.input.RequestItems ?? {})[0] ?? [];
        calls.push({ kind: 'BatchWriteItem', items: requests.map((r) => r.PutRequest!.Item as Record<string, unknown>) });
      } else if (command instanceof PutCommand) {
        calls.push({ kind: 'PutItem', items: [command.input.Item!], condition: command.input.ConditionExpression! });
        if (options.putRefused) throw Object.assign(new Error('refused'), { name: 'ConditionalCheckFailedException' });
      } else if (command instanceof TransactWriteCommand) calls.push({ kind: 'TransactWriteItems', items: [] });
      else throw new Error(`unexpected ${String(command)}`);
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  const idempotencyStore = { putItem: () => ({ Put: { TableName: 'T', Item: { PK: 'IDEMPOTENCY#acc_1#k', SK: 'RECORD' } } }) };
  return { emails: new EmailRepository({ client, name: 'T' }, idempotencyStore), calls };
}

describe('accepting one email of a fresh id', () => {
  it('writes the item and its three references in one BatchWriteItem, the item as the conditional PutItem would have put it', async () => {
    const fresh = recordingTable();
    expect(await fresh.emails.accept(request({ freshId: true }))).toEqual({ kind: 'accepted', reserved: [] });
    expect(fresh.calls.map((call) => [call.kind, call.items.length])).toEqual([['BatchWriteItem', 4]]);
    const [batch] = fresh.calls;
    expect(batch!.items.filter((item) => item.type === 'address_ref')).toHaveLength(3);

    const chosen = recordingTable();
    expect(await chosen.emails.accept(request())).toEqual({ kind: 'accepted', reserved: [] });
    expect(chosen.calls.map((call) => call.kind).sort()).toEqual(['BatchWriteItem', 'PutItem']);
    const put = chosen.calls.find((call) => call.kind === 'PutItem')!;
    expect(put.condition).toBe('attribute_not_exists(PK)');
    expect(batch!.items.find((item) => item.type === 'email')).toEqual(put.items[0]);
  });

  it('a caller-chosen id keeps its condition: an existing email is email_exists', async () => {
    const { emails, calls } = recordingTable({ putRefused: true });
    expect(await emails.accept(request({ freshId: false }))).toEqual({ kind: 'email_exists' });
    expect(calls.find((call) => call.kind === 'PutItem')?.condition).toBe('attribute_not_exists(PK)');
  });

  it('an acceptance with an idempotency record or capped places keeps its transaction, fresh id or not', async () => {
    const withIdempotency = recordingTable();
    const idempotency = {
      accountId: 'acc_1',
      key: 'k',
      record: { fingerprint: 'f', status: 200, body: {}, created_at: NOW.toISOString() },
      now: NOW,
    };
    await withIdempotency.emails.accept(request({ freshId: true, idempotency } as Partial<AcceptRequest>));
    expect(withIdempotency.calls.map((call) => call.kind).sort()).toEqual(['BatchWriteItem', 'TransactWriteItems']);

    const capped = recordingTable();
    const daily = usageReservations('free', false, NOW).filter((r) => r.limit !== null);
    expect(daily.length).toBeGreaterThan(0);
    await capped.emails.accept(request({ freshId: true, capped: daily, uncapped: [] }));
    expect(capped.calls.map((call) => call.kind).sort()).toEqual(['BatchWriteItem', 'TransactWriteItems']);
  });
});
