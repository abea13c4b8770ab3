/**
 * A domain whose DNS checked out while SES was still verifying it completes by itself (docs/domains.md,
 * "Registration with the mail provider (SES)"; docs/reliability.md): the check puts it in the due index,
 * the reconciler (its passes asked for each second here: harness/tasks.ts; re-check bounds in
 * localstack/cloud/stack/recovery-settings.ts) asks SES again and records it `verified`, with no GET /domains/{id} or verify from the test (either
 * would complete it too). Observed in the table directly and through a send that then passes.
 * The stack's SES verifies `*.ses-verifies-later.test` no sooner than 4 s after registration, and only
 * once it sees the DKIM record (harness/global-setup.ts; docs/local-cloud/ses.md "Identity verification").
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#shared/adapters/store/keys';
import { publish, unpublish } from './harness/dns';
import { providerPendingDomain } from './harness/domains';
import { api, newAccount, stack, waitForStatus } from './harness/stack';
import { waitWithReconciler } from './harness/tasks';

let table: { client: DynamoDBDocumentClient; name: string };
beforeAll(() => {
  const { info } = stack();
  table = {
    client: DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: info.endpoints.dynamodb, region: info.region })),
    name: info.env.TABLE_NAME!,
  };
});
afterAll(() => table.client.destroy());

/** The domain item as stored (index keys included), read consistently: never through GET, which would complete it. */
async function rawDomain(id: string): Promise<Record<string, any>> {
  const result = await table.client.send(new GetCommand({ TableName: table.name, Key: keys.domain(id), ConsistentRead: true }));
  return result.Item!;
}

// Both tests at once (`it.concurrent`), each with an account of its own (a free plan has one domain): their waits for
// the reconciler's passes overlap.
describe('a domain SES verifies after its check', () => {
  it.concurrent('is put in the due index by the check and becomes verified with no GET or verify: sends from it then pass', async () => {
    const account = await newAccount();
    const domain = await providerPendingDomain(account);
    const indexed = await rawDomain(domain.id);
    expect(indexed.GSI2SK).toMatch(new RegExp(`^\\d{4}-.+#DOMAIN#${domain.id}$`));
    expect(indexed.provider_pending_since).toBe(indexed.last_checked_at);

    const refused = await api('POST', '/emails', {
      key: account.key,
      body: { from: `hello@${domain.name}`, to: account.email, subject: 'too early', text: 'x' },
    });
    expect(refused.status).toBe(403);

    const verified = await waitWithReconciler(
      async () => {
        const item = await rawDomain(domain.id);
        return item.status === 'verified' && item;
      },
      'the reconciler to record the domain verified',
      60_000,
    );
    expect(verified).toMatchObject({ status: 'verified', provider: { status: 'verified' }, verified_at: expect.any(String) });
    // Its write took it out of the index.
    expect(verified).not.toHaveProperty('GSI2PK');
    expect(verified).not.toHaveProperty('GSI2SK');
    expect(verified).not.toHaveProperty('provider_pending_since');

    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { from: `hello@${domain.name}`, to: account.email, subject: 'now', text: 'x' },
    });
    expect(sent.status).toBe(200);
    await waitForStatus(account, sent.body.id, 'delivered');
  });

  it.concurrent('stays due while SES still verifies it (asked again, its due time moving on, nothing recorded), then completes once SES sees the record', async () => {
    const account = await newAccount();
    const domain = await providerPendingDomain(account);
    // SES has not seen the DKIM record yet and now cannot: it stays PENDING.
    const dkim = domain.records.find((record) => record.purpose === 'dkim')!;
    await unpublish(dkim.name, 'TXT');
    const first = await rawDomain(domain.id);
    const dueTimes = new Set<string>([first.GSI2SK]);
    await waitWithReconciler(
      async () => {
        const item = await rawDomain(domain.id);
        expect(item).toMatchObject({ status: 'pending', provider: { status: 'pending' }, last_checked_at: first.last_checked_at });
        dueTimes.add(item.GSI2SK);
        return dueTimes.size >= 3;
      },
      'the reconciler to ask SES again twice',
      60_000,
    );
    // Later each time, in the same index partition.
    const ordered = [...dueTimes];
    expect([...ordered].sort()).toEqual(ordered);
    expect((await rawDomain(domain.id)).GSI2PK).toBe(first.GSI2PK);

    await publish(dkim.name, 'TXT', [dkim.value]);
    await waitWithReconciler(
      async () => (await rawDomain(domain.id)).status === 'verified',
      'the reconciler to record the domain verified',
      60_000,
    );
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { from: `hello@${domain.name}`, to: account.email, subject: 'now', text: 'x' },
    });
    expect(sent.status).toBe(200);
  });
});
