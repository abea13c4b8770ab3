/**
 * The import store against DynamoDB Local (shared/adapters/store/imports.ts): a write the SDK sends again
 * after its answer was lost (a claim, a stretch's save, a request's finish) is recognised as the same
 * write, not read as another request having taken the import over; and a request whose lease another
 * request took still loses. Works a private copy of the table (no worker watches it).
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTemplateTable } from '../support/template-table';
import { createAwsClients } from '#shared/adapters/aws/clients';
import { loadConfig } from '#shared/config/config';
import { emptyTotals, INITIAL_PROGRESS, newImportHead, type ImportHead } from '#shared/domain/imports/import';
import { emptyPart } from '#shared/domain/imports/report';
import { ImportRepository } from '#shared/adapters/store/imports';
import { stack } from './harness/stack';

describe('the import store', () => {
  let store: ImportRepository;

  beforeAll(async () => {
    stack();
    const config = loadConfig(process.env);
    const name = `migrations-store-test-${randomUUID().slice(0, 8)}`;
    await ensureTemplateTable(new DynamoDBClient({ region: config.region, endpoint: config.endpoints.dynamodb }), name);
    store = new ImportRepository({ client: createAwsClients(config).dynamo, name });
  });

  async function newImport(leaseUntil: number): Promise<ImportHead> {
    const head = newImportHead(
      { account_id: `acc_${randomUUID()}`, provider: 'sendgrid', region: 'us', resources: ['suppressions'], dry_run: false },
      Date.now(),
    );
    await store.create(head, leaseUntil);
    return head;
  }

  it('takes a stretch saved twice (a retry of the same write) as saved once', async () => {
    const lease = Date.now() + 60_000;
    const head = await newImport(lease);
    const update = { progress: { ...INITIAL_PROGRESS, offset: 1 }, totals: emptyTotals(), part: emptyPart() };
    const before = structuredClone(head);
    expect(await store.saveStretch(head, lease, update, new Date().toISOString())).toBe(true);
    // The same write again, from the state it was sent in.
    expect(await store.saveStretch(before, lease, update, head.updated_at)).toBe(true);
    expect(await store.parts(head.account_id, head.id)).toHaveLength(1);
    expect((await store.get(head.account_id, head.id, Date.now()))!.parts).toBe(1);
  });

  it('takes a finish sent twice as finished once; a request whose lease was taken still loses', async () => {
    const lease = Date.now() + 60_000;
    const head = await newImport(lease);
    const before = structuredClone(head);
    const at = new Date().toISOString();
    const finish = { status: 'completed' as const, has_more: false, retry_after_seconds: null };
    expect(await store.finish(head, lease, finish, at)).toBe(true);
    expect(await store.finish(before, lease, finish, at)).toBe(true);
    expect((await store.get(head.account_id, head.id, Date.now()))!.requests).toBe(1);

    const oldLease = Date.now() - 1;
    const other = await newImport(oldLease);
    const taken = await store.claim(other.account_id, other.id, 0, Date.now(), Date.now() + 60_000);
    expect(taken.kind).toBe('claimed');
    // The first request (its lease over) saves or finishes: refused.
    expect(
      await store.saveStretch(
        structuredClone(other),
        oldLease,
        { progress: INITIAL_PROGRESS, totals: emptyTotals(), part: emptyPart() },
        new Date().toISOString(),
      ),
    ).toBe(false);
    expect(await store.finish(structuredClone(other), oldLease, finish, new Date().toISOString())).toBe(false);
  });

  it('takes a claim sent twice as claimed by the same request, and by no other', async () => {
    const head = await newImport(Date.now() - 1);
    const now = Date.now();
    const lease = now + 60_000;
    expect((await store.claim(head.account_id, head.id, 0, now, lease)).kind).toBe('claimed');
    expect((await store.claim(head.account_id, head.id, 0, now, lease)).kind).toBe('claimed');
    expect((await store.claim(head.account_id, head.id, 0, now, lease + 1)).kind).toBe('busy');
  });
});
