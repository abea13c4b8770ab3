/**
 * Delivery to SQS targets: resolves a queue ARN to its URL with GetQueueUrl on the configured SQS
 * endpoint (cached; forgotten after a failed send so a re-created queue is found again) and sends.
 */
import { GetQueueUrlCommand, SendMessageCommand, SQSClient, type MessageAttributeValue } from '@aws-sdk/client-sqs';
import { parseSqsArn } from './sqs-arn';

export interface SqsConnection {
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
}

export interface SqsMessage {
  body: string;
  messageGroupId?: string;
  attributes?: Record<string, MessageAttributeValue>;
}

/** Result of a send: delivered, or abandoned because `stillWanted()` said no just before sending. */
export type SendOutcome = 'sent' | 'aborted';

/**
 * Whether the schedule's execution role may send to the queue (its IAM policies), as EventBridge Scheduler
 * assumes the role to invoke the target (https://docs.aws.amazon.com/scheduler/latest/UserGuide/setting-up.html#setting-up-execution-role);
 * a string is why it may not. Without one, every role may.
 */
export type TargetAuthorizer = (roleArn: string, queueArn: string, queueUrl: string) => Promise<true | string>;

export class SqsTargetSender {
  private readonly client: SQSClient;
  /** Set by the local cloud once the roles are deployed. */
  authorize?: TargetAuthorizer;
  private readonly urls = new Map<string, string>();

  constructor(conn: SqsConnection) {
    this.client = new SQSClient({
      endpoint: conn.endpoint,
      region: conn.region,
      credentials: conn.credentials,
      // The scheduler's RetryPolicy decides about retries; a hung endpoint must not stall firing.
      maxAttempts: 1,
      requestHandler: { requestTimeout: 10_000, connectionTimeout: 5_000 },
    });
  }

  /**
   * Sends `message` to the queue `queueArn`. `stillWanted` is called after every await and right
   * before SendMessage: if it returns false nothing is sent.
   */
  async send(queueArn: string, message: SqsMessage, stillWanted: () => boolean = () => true, roleArn?: string): Promise<SendOutcome> {
    const queueUrl = await this.queueUrl(queueArn);
    if (!stillWanted()) return 'aborted';
    if (this.authorize && roleArn) {
      const allowed = await this.authorize(roleArn, queueArn, queueUrl);
      // The invocation fails, and the schedule's RetryPolicy applies, as for any failed target invocation.
      if (allowed !== true) throw Object.assign(new Error(allowed), { name: 'AccessDenied' });
    }
    try {
      await this.client.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: message.body,
          ...(message.messageGroupId !== undefined ? { MessageGroupId: message.messageGroupId } : {}),
          ...(message.attributes ? { MessageAttributes: message.attributes } : {}),
        }),
      );
    } catch (err) {
      this.urls.delete(queueArn);
      throw err;
    }
    return 'sent';
  }

  private async queueUrl(queueArn: string): Promise<string> {
    const cached = this.urls.get(queueArn);
    if (cached) return cached;
    const ref = parseSqsArn(queueArn);
    if (!ref) throw new Error(`Not an SQS queue ARN: ${queueArn}`);
    const out = await this.client.send(new GetQueueUrlCommand({ QueueName: ref.queueName }));
    if (!out.QueueUrl) throw new Error(`GetQueueUrl returned no URL for ${queueArn}`);
    this.urls.set(queueArn, out.QueueUrl);
    return out.QueueUrl;
  }

  destroy(): void {
    this.client.destroy();
  }
}
