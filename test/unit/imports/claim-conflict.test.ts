/**
 * ImportRepository.claim (shared/adapters/store/imports.ts) when the request holding the lease is saving a stretch
 * at that moment: DynamoDB refuses the claim's UpdateItem with TransactionConflictException (a single-item
 * write against an item in a transaction in progress). That is "busy" (409 conflict), not a 500. The client
 * answers as DynamoDB does; the race itself is raced for real in test/integration/imports-api.test.ts.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ImportRepository } from '#shared/adapters/store/imports';

const NOW = Date.parse('2026-11-25T08:00:00Z');
const head = {
  PK: 'ACCOUNT#acc_1',
  SK: 'MIGRATION#mig_1',
  type: 'migration',
  id: 'mig_1',
  account_id: 'acc_1',
  requests: 2,
  has_more: true,
  status: 'partial',
};

function repositoryAnswering(stored: Record<string, unknown>, updateError: Error) {
  const sent: string[] = [];
  const client = {
    send: async (command: unknown) => {
      if (command instanceof UpdateCommand) {
        sent.push('UpdateItem');
        throw updateError;
      }
      if (command instanceof GetCommand) {
        sent.push('GetItem');
        return { Item: stored };
      }
      throw new Error('unexpected command');
    },
  } as unknown as DynamoDBDocumentClient;
  return { repository: new ImportRepository({ client, name: 'table' }), sent };
}

const conflict = Object.assign(new Error('Transaction is ongoing for the item'), { name: 'TransactionConflictException' });

describe('claiming an import while its lease holder saves a stretch', () => {
  it('answers busy, from the head as it stands (one consistent read)', async () => {
    const { repository, sent } = repositoryAnswering({ ...head, lease_until: NOW + 30_000 }, conflict);
    const outcome = await repository.claim('acc_1', 'mig_1', 2, NOW, NOW + 60_000);
    expect(outcome.kind).toBe('busy');
    expect(sent).toEqual(['UpdateItem', 'GetItem']);
  });

  it('answers stale when the lease holder finished the request meanwhile', async () => {
    const { repository } = repositoryAnswering({ ...head, requests: 3, has_more: false }, conflict);
    expect((await repository.claim('acc_1', 'mig_1', 2, NOW, NOW + 60_000)).kind).toBe('stale');
  });

  it('still throws any other error', async () => {
    const { repository } = repositoryAnswering(head, Object.assign(new Error('boom'), { name: 'InternalServerError' }));
    await expect(repository.claim('acc_1', 'mig_1', 2, NOW, NOW + 60_000)).rejects.toThrow('boom');
  });
});
