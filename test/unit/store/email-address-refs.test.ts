/**
 * An email's address references (shared/adapters/store/emails/email-item.ts, writeEmailAddressRefs): one
 * reference per address it names, to the email and to its idempotency record, written in one BatchWriteItem
 * when they fit (25 requests), else in as many as they take.
 */
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { writeEmailAddressRefs } from '#shared/adapters/store/emails/email-item';
import type { Email } from '#shared/domain/emails/email';

const NOW = new Date('2026-11-28T10:00:00.000Z');

const email = (to: string[]): Email =>
  ({ id: 'msg_1', account_id: 'acc_1', to, cc: ['c@example.com'], bcc: [], reply_to: ['r@example.com'] }) as unknown as Email;

/** A table whose client records each BatchWriteItem's requests and answers that all were processed. */
function recordingTable() {
  const batches: { kind: unknown; target: unknown }[][] = [];
  const client = {
    send: async (command: unknown) => {
      if (!(command instanceof BatchWriteCommand)) throw new Error(`unexpected ${String(command)}`);
      const requests = Object.values(command.input.RequestItems ?? {})[0] ?? [];
      batches.push(requests.map((request) => ({ kind: request.PutRequest?.Item?.kind, target: request.PutRequest?.Item?.target_pk })));
      return { UnprocessedItems: {} };
    },
  } as unknown as DynamoDBDocumentClient;
  return { table: { client, name: 'T' }, batches };
}

const idempotency = { accountId: 'acc_1', key: 'k-1', record: {} as never, now: NOW };

describe("an email's address references", () => {
  it('writes those of the email and of its idempotency record in one BatchWriteItem', async () => {
    const { table, batches } = recordingTable();
    await writeEmailAddressRefs(table, email(['a@example.com']), idempotency, 1_800_000_000);
    expect(batches).toHaveLength(1);
    // a@, c@ and r@, each to the email and to the idempotency record.
    expect(batches[0]!.filter((ref) => ref.kind === 'email')).toHaveLength(3);
    expect(batches[0]!.filter((ref) => ref.kind === 'idempotency_record')).toHaveLength(3);
  });

  it('writes one BatchWriteItem without an idempotency key, and more only past 25 references', async () => {
    const one = recordingTable();
    await writeEmailAddressRefs(one.table, email(['a@example.com']), undefined, 1_800_000_000);
    expect(one.batches.map((batch) => batch.length)).toEqual([3]);
    const many = recordingTable();
    const to = Array.from({ length: 20 }, (_, i) => `to${i}@example.com`);
    await writeEmailAddressRefs(many.table, email(to), idempotency, 1_800_000_000);
    expect(many.batches.map((batch) => batch.length).sort((a, b) => b - a)).toEqual([25, 19]);
  });
});
