/**
 * Where a sent email stood when a wait for it gave up, for the failure's message: its item as stored (the
 * pipeline's fields: status, lease, due time, attempts; bodies left out), and the send queue's depth. A wait
 * that times out on a loaded machine then says whether the email was never queued, held, leased or lost.
 */
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#shared/adapters/store/keys';
import { WaitTimeout } from '../../support/wait';
import { stack } from './stack';
import { documentClient } from './usage';

/** Attributes too large or too private for a failure message. */
const LEFT_OUT = new Set(['html', 'text', 'body', 'headers', 'attachments', 'tags', 'content']);

export async function emailDiagnosis(id: string): Promise<string> {
  const { info } = stack();
  const parts: string[] = [];
  const client = documentClient();
  try {
    const { Item } = await client.send(new GetCommand({ TableName: info.env.TABLE_NAME, Key: keys.email(id), ConsistentRead: true }));
    if (!Item) parts.push('no item');
    else {
      const shown = Object.fromEntries(
        Object.entries(Item)
          .filter(([name]) => !LEFT_OUT.has(name))
          .map(([name, value]) => [name, typeof value === 'string' && value.length > 120 ? `${value.slice(0, 120)}...` : value]),
      );
      parts.push(`item ${JSON.stringify(shown)}`);
    }
  } catch (error) {
    parts.push(`item unreadable: ${String(error)}`);
  } finally {
    client.destroy();
  }
  const queue = info.resources?.queues.send;
  if (queue) {
    const sqs = new SQSClient({ endpoint: info.endpoints.sqs, region: info.region });
    try {
      for (const url of [queue.url, queue.dlqUrl]) {
        const { Attributes } = await sqs.send(
          new GetQueueAttributesCommand({
            QueueUrl: url,
            AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
          }),
        );
        parts.push(
          `${url === queue.url ? 'send queue' : 'its DLQ'}: ${Attributes?.ApproximateNumberOfMessages} visible, ${Attributes?.ApproximateNumberOfMessagesNotVisible} in flight, ${Attributes?.ApproximateNumberOfMessagesDelayed} delayed`,
        );
      }
    } catch (error) {
      parts.push(`queues unreadable: ${String(error)}`);
    } finally {
      sqs.destroy();
    }
  }
  return parts.join('; ');
}

/** `wait`, its timeout's message followed by where email `id` stood. */
export async function diagnosed<T>(id: string, wait: Promise<T>): Promise<T> {
  try {
    return await wait;
  } catch (error) {
    if (error instanceof WaitTimeout) error.message += `\nwhere it stood: ${await emailDiagnosis(id)}`;
    throw error;
  }
}
