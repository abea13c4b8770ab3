/**
 * The local SES account has a finite quota unless told otherwise (LOCAL_CLOUD_QUOTA, docs/local-cloud/ses.md),
 * as every SES account does: the send worker paces to it and writes the shared send budget on every send, as
 * on AWS (issue 49: the local cloud must never be more lenient, or cheaper, than AWS).
 */
import { GetAccountCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_CLOUD_QUOTA } from '#localstack/emulators/ses/account-limits';
import { createDynamoClient } from '#shared/adapters/aws/dynamo-client';
import { keys } from '#shared/adapters/store/keys';
import { budgetShards } from '#shared/adapters/store/ses-send-budget';
import { loadConfig } from '#shared/config/config';
import { PACE_SHARE_OF_SES_RATE } from '#shared/domain/ses/send-quota';
import { api, newAccount, stack, waitForStatus } from './harness/stack';

describe("the local SES account's quota", () => {
  it('is finite by default: GetAccount answers the local cloud quota, out of the sandbox', async () => {
    const { info } = stack();
    const ses = new SESv2Client({ endpoint: info.endpoints.sesv2, region: info.region });
    try {
      const account = await ses.send(new GetAccountCommand({}));
      expect(account.ProductionAccessEnabled).toBe(true);
      expect(account.SendQuota).toMatchObject({
        MaxSendRate: LOCAL_CLOUD_QUOTA.maxSendRate,
        Max24HourSend: LOCAL_CLOUD_QUOTA.max24HourSend,
      });
    } finally {
      ses.destroy();
    }
  });

  it('paces every send: a delivered email has reserved its slot in the shared send budget', async () => {
    const account = await newAccount();
    const before = Date.now();
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { from: `Paced <paced@${stack().info.env.SANDBOX_DOMAIN}>`, to: account.email, subject: 'paced', text: 'paced' },
    });
    expect(sent.status).toBe(200);
    await waitForStatus(account, sent.body.id, 'delivered');
    const config = loadConfig(process.env);
    const client = createDynamoClient(config);
    try {
      const shards = budgetShards(LOCAL_CLOUD_QUOTA.maxSendRate * PACE_SHARE_OF_SES_RATE);
      const tats = await Promise.all(
        Array.from({ length: shards }, async (_, shard) =>
          Number(
            (await client.send(new GetCommand({ TableName: config.tableName, Key: keys.sesSendBudget(shard), ConsistentRead: true }))).Item
              ?.tat ?? 0,
          ),
        ),
      );
      // A shard's budget is paid up to at least this send's slot (no item at all when sends were not paced).
      expect(Math.max(...tats)).toBeGreaterThanOrEqual(before);
    } finally {
      client.destroy();
    }
  });
});
