/**
 * SNS to SQS on the local cloud, authorized by the queue's policy as AWS does: against real fauxqs (its
 * Publish fans out to the subscribed queues), with the gate of localstack/cloud/messaging/sns-delivery-gate.ts and the
 * check of localstack/cloud/iam/service-deliveries.ts over a queue policy shaped as the template's.
 */
import { PublishBatchCommand, PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startFauxqsServer } from '#localstack/cloud/services/fauxqs';
import type { LocalMessaging } from '#localstack/cloud/messaging/local-messaging';
import { snsDeliveryCheck } from '#localstack/cloud/iam/service-deliveries';
import type { IamSettings } from '#localstack/cloud/iam/iam-setup';
import type { NamedPolicy, PolicyStatement } from '#localstack/iam/policy';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const ACCOUNT = '000000000000';
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** A queue policy as CDK's SqsSubscription writes it (with the TLS-only deny): sns.amazonaws.com may send, for one topic. */
function snsMayDeliver(queueArn: string, topicArn: string): NamedPolicy & { document: { Statement: PolicyStatement[] } } {
  return {
    name: 'QueuePolicy',
    document: {
      Version: '2012-10-17',
      Statement: [
        {
          Action: 'sqs:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Resource: queueArn,
        },
        {
          Action: 'sqs:SendMessage',
          Condition: { ArnEquals: { 'aws:SourceArn': topicArn } },
          Effect: 'Allow',
          Principal: { Service: 'sns.amazonaws.com' },
          Resource: queueArn,
        },
      ],
    },
  };
}

const settings = (resourcePolicies: IamSettings['resourcePolicies']): IamSettings => ({
  mode: 'enforce',
  accountId: ACCOUNT,
  region: 'us-east-1',
  resourcePolicies,
  kmsAliases: {},
});

describe('snsDeliveryCheck', () => {
  const queue = `arn:aws:sqs:us-east-1:${ACCOUNT}:events`;
  const topic = `arn:aws:sns:us-east-1:${ACCOUNT}:ses-events`;

  it('allows the topic its queue policy names, and refuses another topic, a queue without policy, and a policy without the statement', () => {
    const check = snsDeliveryCheck(settings({ [queue]: snsMayDeliver(queue, topic) }), new Set([queue, `${queue}-2`]));
    expect(check(topic, queue)).toBe(true);
    expect(check(`${topic}-other`, queue)).toMatch(
      /no statement of the queue's policy allows sns.amazonaws.com sqs:SendMessage for \S+-other \(ImplicitDeny\)/,
    );
    expect(check(topic, `${queue}-2`)).toMatch(/\(no queue policy\)$/);
    const denyOnly = snsMayDeliver(queue, topic);
    denyOnly.document.Statement.pop();
    expect(snsDeliveryCheck(settings({ [queue]: denyOnly }), new Set([queue]))(topic, queue)).toMatch(/\(ImplicitDeny\)$/);
  });

  it('does not check a queue the template does not define', () => {
    expect(snsDeliveryCheck(settings({}), new Set([queue]))(topic, `${queue}-of-a-test`)).toBe(true);
  });
});

describe('SNS deliveries to SQS through fauxqs, checked', () => {
  let fauxqs: LocalMessaging;
  let sns: SNSClient;
  let sqs: SQSClient;
  const logged: string[] = [];

  beforeAll(async () => {
    fauxqs = await startFauxqsServer({ port: 0, host: 'localhost' });
    sns = new SNSClient({ endpoint: fauxqs.address, region: 'us-east-1', credentials });
    sqs = new SQSClient({ endpoint: fauxqs.address, region: 'us-east-1', credentials });
  });
  afterAll(async () => {
    fauxqs.snsDeliveries.authorize(null);
    sns.destroy();
    sqs.destroy();
    await fauxqs.stop();
  });

  async function bodies(queueUrl: string): Promise<string[]> {
    const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    return (received.Messages ?? []).map((message) => message.Body ?? '');
  }

  it('delivers to the queue whose policy allows the topic and drops the message for the one whose policy does not, with a log line', async () => {
    const topic = fauxqs.createTopic('events');
    const allowed = fauxqs.createQueue('allowed');
    const refused = fauxqs.createQueue('refused');
    for (const queue of ['allowed', 'refused']) fauxqs.subscribe({ topic: 'events', queue, attributes: { RawMessageDelivery: 'true' } });
    const check = snsDeliveryCheck(
      settings({ [allowed.queueArn]: snsMayDeliver(allowed.queueArn, topic.topicArn) }),
      new Set([allowed.queueArn, refused.queueArn]),
    );
    fauxqs.snsDeliveries.authorize(check, (line) => logged.push(line));

    const published = await sns.send(new PublishCommand({ TopicArn: topic.topicArn, Message: 'one' }));
    // The publisher is not told: SNS accepted the message; only that subscription's delivery failed.
    expect(published.MessageId).toBeDefined();
    await sns.send(new PublishBatchCommand({ TopicArn: topic.topicArn, PublishBatchRequestEntries: [{ Id: 'a', Message: 'two' }] }));
    expect((await bodies(allowed.queueUrl)).sort()).toEqual(['one', 'two']);
    expect(await bodies(refused.queueUrl)).toEqual([]);
    expect(
      logged.filter((line) =>
        line.startsWith(
          `sns: dropped a message of ${topic.topicArn} for its subscription ${refused.queueArn}: no statement of the queue's policy`,
        ),
      ),
    ).toHaveLength(2);

    // Without a check (LOCAL_IAM=off), fauxqs delivers to both.
    fauxqs.snsDeliveries.authorize(null);
    await sns.send(new PublishCommand({ TopicArn: topic.topicArn, Message: 'three' }));
    expect(await bodies(allowed.queueUrl)).toEqual(['three']);
    expect(await bodies(refused.queueUrl)).toEqual(['three']);
  });
});
