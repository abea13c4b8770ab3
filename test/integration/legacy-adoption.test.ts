/**
 * Adopting the records of an older release (`admin data adopt-legacy`, docs/privacy.md "Records of before this
 * release"), on a stack of its own whose clock the test moves. An account with 1-day retention sends an email
 * (a large body and an attachment in the bucket, a webhook delivery logged) and receives one; the test then
 * turns them back into what the release before issue 34 wrote: no `ttl`, objects at their old keys (outside
 * every lifecycle rule), no address references (nor their mark), a delivery without `retention_seconds`. The adoption gives
 * them their retention and references: the records still read whole, an erasure finds them, and three days
 * later by the functions' clock the sweeps remove records and objects alike. A second run adopts nothing.
 */
import { CopyObjectCommand, DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { runAdminCli } from './harness/admin-cli';
import { useOwnStack } from './harness/own-stack';

const SANDBOX = 'sandbox.mailservice.dev';
const DAY_MS = 86_400_000;

jest.setTimeout(180_000);

describe('adopting the records of an older release (admin data adopt-legacy)', () => {
  const { dataDir } = useOwnStack('mailservice-legacy-');
  let harness: typeof import('./harness/stack');
  let inbound: typeof import('./harness/inbound');
  let usage: typeof import('./harness/usage');
  let webhooks: typeof import('./harness/webhook-inbox');
  let store: typeof import('./harness/store-contents');

  beforeAll(async () => {
    harness = await import('./harness/stack');
    inbound = await import('./harness/inbound');
    usage = await import('./harness/usage');
    webhooks = await import('./harness/webhook-inbox');
    store = await import('./harness/store-contents');
  });

  const admin = (...args: string[]) => runAdminCli(dataDir, ...args);

  function s3(): S3Client {
    const { info } = harness.stack();
    return new S3Client({ endpoint: info.endpoints.s3, region: info.region, forcePathStyle: true });
  }

  const tableItems = () => store.tableItems();
  const bucketKeys = async (prefix = '') => (await store.bucketKeys(prefix)).sort();

  /** Moves an object to another key (as the release before kept it). */
  async function moveObject(from: string, to: string): Promise<void> {
    const client = s3();
    const bucket = harness.stack().info.env.MAIL_BUCKET;
    await client.send(new CopyObjectCommand({ Bucket: bucket, Key: to, CopySource: `${bucket}/${from}` }));
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: from }));
    client.destroy();
  }

  async function update(key: { PK: string; SK: string }, expression: string, values?: Record<string, unknown>): Promise<void> {
    const client = usage.documentClient();
    await client.send(
      new UpdateCommand({
        TableName: harness.stack().info.env.TABLE_NAME,
        Key: key,
        UpdateExpression: expression,
        ...(values ? { ExpressionAttributeValues: values } : {}),
        ...(expression.includes('#ttl') ? { ExpressionAttributeNames: { '#ttl': 'ttl' } } : {}),
      }),
    );
    client.destroy();
  }

  const keyOf = (item: Record<string, any>) => ({ PK: item.PK as string, SK: item.SK as string });

  it('gives emails, received emails and deliveries of before their retention and address references; they then expire and can be erased', async () => {
    const account = await harness.newAccount();
    expect(
      (
        await harness.api('PATCH', '/account', {
          key: account.key,
          body: { retention: { emails_days: 1, received_emails_days: 1, webhook_deliveries_days: 1 } },
        })
      ).status,
    ).toBe(200);
    const deliveries = await webhooks.webhookInbox(account, ['email.delivered']);
    const sent = await harness.api('POST', '/emails', {
      key: account.key,
      body: {
        from: `a@${SANDBOX}`,
        to: account.email,
        subject: 'from an older release',
        html: `<p>${'y'.repeat(4000)}</p>`,
        attachments: [{ filename: 'a.txt', content: Buffer.from('legacy attachment').toString('base64') }],
      },
    });
    expect(sent.status).toBe(200);
    const emailId = sent.body.id as string;
    await harness.waitForStatus(account, emailId, 'delivered');
    await harness.waitFor(async () => ((await deliveries()).length ? true : undefined), 'the email.delivered webhook', 20_000);

    const sender = `legacy-sender-${Date.now()}@sender.example`;
    const domain = await inbound.receivingDomain(account);
    const info = await inbound.mxTransport().sendMail({
      from: sender,
      to: domain.address('inbox'),
      subject: 'old mail',
      text: 'received by an older release',
      attachments: [{ filename: 'r.txt', content: 'old attachment' }],
    });
    const [receivedId] = inbound.receivedIds(info.response);
    await inbound.waitForReceived(account, receivedId!);
    await harness.waitFor(
      async () =>
        (await tableItems()).some(
          (item) => item.type === 'webhook_delivery' && item.account_id === account.id && item.status === 'succeeded',
        )
          ? true
          : undefined,
      'the delivery logged',
      20_000,
    );

    // Back to what the release before wrote.
    const items = await tableItems();
    const emailItem = items.find((item) => item.type === 'email' && item.id === emailId)!;
    expect(emailItem.body_blob_key).toBe(`retention/1d/bodies/${emailId}.json`);
    await moveObject(emailItem.body_blob_key, `bodies/${emailId}.json`);
    await moveObject(`retention/1d/attachments/${emailId}/0`, `attachments/${emailId}/0`);
    await update(keyOf(emailItem), 'REMOVE #ttl, attachments[0].blob_key, address_refs SET body_blob_key = :body', {
      ':body': `bodies/${emailId}.json`,
    });
    const receivedItem = items.find((item) => item.type === 'received_email' && item.id === receivedId)!;
    const sharedRaw = receivedItem.shared_raw_key as string;
    expect(sharedRaw).toMatch(/^inbound\/raw\//);
    for (const name of ['content.json', 'attachments/att_1'])
      await moveObject(`retention/1d/inbound/${receivedId}/${name}`, `inbound/${receivedId}/${name}`);
    await moveObject(`retention/1d/inbound/${receivedId}/message.eml`, `legacy-trash/${receivedId}.eml`);
    await update(keyOf(receivedItem), 'REMOVE #ttl, objects_prefix, shared_raw_key, address_refs SET raw_key = :raw', {
      ':raw': sharedRaw,
    });
    const deliveryItems = items.filter((item) => item.type === 'webhook_delivery' && item.account_id === account.id);
    expect(deliveryItems.length).toBeGreaterThan(0);
    for (const item of deliveryItems) await update(keyOf(item), 'REMOVE retention_seconds, address_refs');
    const refs = items.filter((item) => String(item.PK).startsWith(`ADDRESSREF#${account.id}#`));
    expect(refs.length).toBeGreaterThanOrEqual(3);
    const client = usage.documentClient();
    await client.send(
      new BatchWriteCommand({
        RequestItems: { [harness.stack().info.env.TABLE_NAME as string]: refs.map((item) => ({ DeleteRequest: { Key: keyOf(item) } })) },
      }),
    );
    client.destroy();
    expect(await bucketKeys('retention/1d/')).toEqual([]);

    // Adopted: one run, with its counts.
    const adopted = await admin('data', 'adopt-legacy', '--segments', '2');
    expect(adopted.code).toBe(0);
    const counts = JSON.parse(adopted.stdout.trim().split('\n').at(-1)!);
    expect(counts).toMatchObject({ emails: 1, received_emails: 1, webhook_deliveries: deliveryItems.length, already: 0 });
    expect(counts.objects_moved).toBe(5); // the body, the attachment; the received content, attachment and raw copy
    expect(counts.scanned).toBeGreaterThan(refs.length);

    // The records have their ttl and point at objects under the retention prefix; the old keys are gone.
    const after = await tableItems();
    const adoptedEmail = after.find((item) => item.type === 'email' && item.id === emailId)!;
    expect(adoptedEmail.ttl).toBe(Math.floor(Date.parse(adoptedEmail.created_at) / 1000) + 86_400);
    expect(adoptedEmail.body_blob_key).toBe(`retention/1d/bodies/${emailId}.json`);
    expect(adoptedEmail.attachments[0].blob_key).toBe(`retention/1d/attachments/${emailId}/0`);
    const adoptedReceived = after.find((item) => item.type === 'received_email' && item.id === receivedId)!;
    expect(adoptedReceived).toMatchObject({
      objects_prefix: 'retention/1d/',
      raw_key: `retention/1d/inbound/${receivedId}/message.eml`,
      shared_raw_key: sharedRaw,
    });
    expect(typeof adoptedReceived.ttl).toBe('number');
    expect(await bucketKeys(`bodies/`)).toEqual([]);
    expect(await bucketKeys(`attachments/`)).toEqual([]);
    expect(await bucketKeys(`inbound/${receivedId}/`)).toEqual([]);
    expect(await bucketKeys('retention/1d/')).toEqual(
      [
        `retention/1d/attachments/${emailId}/0`,
        `retention/1d/bodies/${emailId}.json`,
        `retention/1d/inbound/${receivedId}/attachments/att_1`,
        `retention/1d/inbound/${receivedId}/content.json`,
        `retention/1d/inbound/${receivedId}/message.eml`,
      ].sort(),
    );
    // Read whole through the API from the moved objects.
    const received = (await harness.api('GET', `/received-emails/${receivedId}`, { key: account.key })).body.received_email;
    expect(received.text).toContain('received by an older release');
    expect(received.attachments[0].content).toBe(Buffer.from('old attachment').toString('base64'));
    expect(received.raw.download_url).toContain(`retention/1d/inbound/${receivedId}/message.eml`);
    // The address references are back: the recipient's (email, deliveries) and the sender's.
    const newRefs = after.filter((item) => String(item.PK).startsWith(`ADDRESSREF#${account.id}#`));
    expect(newRefs.map((item) => item.kind).sort()).toEqual(expect.arrayContaining(['email', 'received_email', 'webhook_delivery']));
    expect(newRefs.find((item) => item.kind === 'email')!.ttl).toBe(adoptedEmail.ttl);

    // Idempotent: a second run finds nothing left to adopt.
    const again = JSON.parse((await admin('data', 'adopt-legacy')).stdout.trim().split('\n').at(-1)!);
    expect(again).toMatchObject({ emails: 0, received_emails: 0, webhook_deliveries: 0, automation_runs: 0, objects_moved: 0 });

    // The sender's data can be erased now: the erasure finds the received email through its reference.
    const erasure = await harness.api('POST', '/privacy/erasures', { key: account.key, body: { email: sender } });
    expect(erasure.status).toBe(201);
    const report = await harness.waitFor(
      async () => {
        const read = await harness.api('GET', `/privacy/erasures/${erasure.body.erasure.id}`, { key: account.key });
        return read.body.erasure.status === 'completed' ? read.body.erasure : undefined;
      },
      'the erasure to complete',
      20_000,
    );
    expect(report.removed.received_emails).toBe(1);
    expect((await harness.api('GET', `/received-emails/${receivedId}`, { key: account.key })).status).toBe(404);
    expect(await bucketKeys(`retention/1d/inbound/${receivedId}/`)).toEqual([]);

    // Three days on by the functions' clock, the sweeps remove the email and its objects.
    expect((await harness.api('PUT', '/_local/clock', { body: { offset_ms: 3 * DAY_MS } })).status).toBe(200);
    expect((await harness.api('GET', `/emails/${emailId}`, { key: account.key })).status).toBe(404);
    expect((await harness.api('POST', '/_local/ttl/sweep')).status).toBe(200);
    expect((await harness.api('POST', '/_local/s3/lifecycle-sweep')).status).toBe(200);
    const swept = await tableItems();
    expect(swept.filter((item) => item.type === 'email' && item.id === emailId)).toEqual([]);
    expect(swept.filter((item) => String(item.PK).startsWith(`ADDRESSREF#${account.id}#`) && item.kind === 'email')).toEqual([]);
    expect(await bucketKeys('retention/1d/')).toEqual([]);
  });
});
