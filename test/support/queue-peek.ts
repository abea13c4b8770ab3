/**
 * Looking into an SQS queue (a DLQ) without taking anything from it: messages are received with a
 * visibility timeout of 0, so they stay visible to every other reader (a worker, another test).
 */
import { ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';

/** The JSON bodies of the messages seen in `reads` receives of up to 10 (duplicates possible). */
export async function peekBodies<T = Record<string, unknown>>(sqs: SQSClient, queueUrl: string, reads = 5): Promise<T[]> {
  const bodies: T[] = [];
  for (let read = 0; read < reads; read++) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }),
    );
    for (const message of Messages) bodies.push(JSON.parse(message.Body ?? 'null') as T);
  }
  return bodies;
}
