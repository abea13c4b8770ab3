/**
 * The template's queues, topics, subscriptions and buckets on fauxqs (SQS, SNS and S3 in one server):
 * - AWS::SQS::Queue: VisibilityTimeout, MessageRetentionPeriod, DelaySeconds, ReceiveMessageWaitTimeSeconds,
 *   MaximumMessageSize and RedrivePolicy become the queue's attributes, as SQS's CreateQueue takes them
 *   (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-sqs-queue.html);
 *   `visibilityOverrideSeconds` (LOCAL_QUEUE_VISIBILITY_SECONDS) shortens every visibility timeout so tests
 *   see redelivery and redrive in seconds.
 * - AWS::SNS::Topic and AWS::SNS::Subscription (protocol sqs only: the only one we use; another throws),
 *   with RawMessageDelivery as the subscription attribute.
 * - AWS::S3::Bucket, with its LifecycleConfiguration checked here and applied by the local cloud's sweeper
 *   (./s3-lifecycle-rules.ts, ../s3/s3-lifecycle-sweep.ts; fauxqs has no lifecycle API).
 * Idempotent: fauxqs keeps what exists; a kept data folder's messages are restored after (messaging journal).
 */
import type { FauxqsServer } from 'fauxqs';
import type { DeployedStack } from './deployed-stack';
import { bucketLifecycles } from './s3-lifecycle-rules';

interface QueueProperties {
  VisibilityTimeout?: number;
  MessageRetentionPeriod?: number;
  DelaySeconds?: number;
  ReceiveMessageWaitTimeSeconds?: number;
  MaximumMessageSize?: number;
  RedrivePolicy?: { deadLetterTargetArn: string; maxReceiveCount: number };
  FifoQueue?: boolean;
}

const QUEUE_ATTRIBUTES = [
  'VisibilityTimeout',
  'MessageRetentionPeriod',
  'DelaySeconds',
  'ReceiveMessageWaitTimeSeconds',
  'MaximumMessageSize',
] as const;

function queueAttributes(properties: QueueProperties, visibilityOverrideSeconds: number | undefined): Record<string, string> {
  if (properties.FifoQueue) throw new Error('the local cloud deploys standard queues only (FifoQueue)');
  const attributes: Record<string, string> = {};
  for (const name of QUEUE_ATTRIBUTES) if (properties[name] !== undefined) attributes[name] = String(properties[name]);
  if (visibilityOverrideSeconds !== undefined) attributes.VisibilityTimeout = String(visibilityOverrideSeconds);
  if (properties.RedrivePolicy) {
    attributes.RedrivePolicy = JSON.stringify({
      deadLetterTargetArn: properties.RedrivePolicy.deadLetterTargetArn,
      maxReceiveCount: String(properties.RedrivePolicy.maxReceiveCount),
    });
  }
  return attributes;
}

function lastSegment(arn: string, what: string): string {
  const name = arn.split(':').pop();
  if (!name) throw new Error(`not a ${what} ARN: ${arn}`);
  return name;
}

/** What the deploy makes in the local SQS, SNS and S3 (the local cloud's fauxqs server offers it as fauxqs's own does). */
export type MessagingToDeploy = Pick<FauxqsServer, 'createQueue' | 'createTopic' | 'subscribe' | 'createBucket'>;

export function deployMessaging(stack: DeployedStack, fauxqs: MessagingToDeploy, options: { visibilityOverrideSeconds?: number }): void {
  const queues = stack.ofType('AWS::SQS::Queue');
  // Dead-letter queues first: a redrive policy names an existing queue.
  const ordered = [
    ...queues.filter((id) => !stack.resource(id).Properties?.RedrivePolicy),
    ...queues.filter((id) => stack.resource(id).Properties?.RedrivePolicy),
  ];
  for (const id of ordered) {
    const name = stack.record(id).name!;
    const created = fauxqs.createQueue(name, {
      attributes: queueAttributes(stack.properties<QueueProperties>(id), options.visibilityOverrideSeconds),
    });
    if (created.queueArn !== stack.record(id).attributes.Arn)
      throw new Error(`fauxqs named queue ${name} ${created.queueArn}, the template expects ${String(stack.record(id).attributes.Arn)}`);
    stack.learn(id, { ref: created.queueUrl, attributes: { QueueUrl: created.queueUrl } });
  }
  for (const id of stack.ofType('AWS::SNS::Topic')) {
    const created = fauxqs.createTopic(stack.record(id).name!);
    if (created.topicArn !== stack.record(id).ref)
      throw new Error(`fauxqs named topic ${created.topicArn}, the template expects ${String(stack.record(id).ref)}`);
  }
  for (const id of stack.ofType('AWS::SNS::Subscription')) {
    const subscription = stack.properties<{ Protocol: string; TopicArn: string; Endpoint: string; RawMessageDelivery?: boolean }>(id);
    if (subscription.Protocol !== 'sqs') throw new Error(`${id}: the local cloud delivers SNS to SQS only, not ${subscription.Protocol}`);
    fauxqs.subscribe({
      topic: lastSegment(subscription.TopicArn, 'topic'),
      queue: lastSegment(subscription.Endpoint, 'queue'),
      attributes: { RawMessageDelivery: String(subscription.RawMessageDelivery ?? false) },
    });
  }
  // Buckets, and their lifecycle rules read now so a rule the local S3 cannot apply fails the deploy (./s3-lifecycle-rules.ts).
  bucketLifecycles(stack);
  for (const id of stack.ofType('AWS::S3::Bucket')) fauxqs.createBucket(stack.record(id).name!);
}
