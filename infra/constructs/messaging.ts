import { Duration } from 'aws-cdk-lib';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { QUEUES, TOPICS, type QueueId, type TopicId } from '../definitions';
import { mapRecord, pascalCase } from './util';

/**
 * Every queue of QUEUES with its DLQ, and every topic of TOPICS with its SQS subscriptions. Queues and
 * topics refuse requests not made over TLS (`enforceSSL`: a Deny on `aws:SecureTransport` false in the
 * queue or topic policy, as AWS advises: https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-security-best-practices.html
 * and https://docs.aws.amazon.com/sns/latest/dg/sns-security-best-practices.html); cdk-nag SQS4 and SNS3.
 */
export class Messaging extends Construct {
  readonly queues: Record<QueueId, sqs.Queue>;
  readonly deadLetterQueues: Record<QueueId, sqs.Queue>;
  readonly topics: Record<TopicId, sns.Topic>;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.deadLetterQueues = mapRecord(
      QUEUES,
      (def) =>
        new sqs.Queue(this, `${pascalCase(def.id)}Dlq`, {
          retentionPeriod: Duration.days(14),
          encryption: sqs.QueueEncryption.SQS_MANAGED,
          enforceSSL: true,
        }),
    );
    this.queues = mapRecord(
      QUEUES,
      (def) =>
        new sqs.Queue(this, `${pascalCase(def.id)}Queue`, {
          visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
          encryption: sqs.QueueEncryption.SQS_MANAGED,
          enforceSSL: true,
          deadLetterQueue: { queue: this.deadLetterQueues[def.id], maxReceiveCount: def.maxReceiveCount },
        }),
    );

    this.topics = mapRecord(TOPICS, (def) => {
      const topic = new sns.Topic(this, `${pascalCase(def.id)}Topic`, { enforceSSL: true });
      for (const queueId of def.subscribedQueues) {
        // Not raw delivery: consumers receive the SNS envelope, exactly as on the local cloud.
        topic.addSubscription(new subscriptions.SqsSubscription(this.queues[queueId], { rawMessageDelivery: false }));
      }
      return topic;
    });
  }
}
