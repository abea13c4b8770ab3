/**
 * The `old` floor: the send path up to 972b0e5, call by call (4 GetItem, BatchGetItem of the
 * suppression, a transaction with the plan's usage ADDs, SendMessage). Its SendMessage goes to a scratch
 * queue (`sinkUrl`): the outbox relay already enqueues the email; its item has no `usage_deferred` (its
 * transaction counted the usage).
 */
import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { floorRun, type FloorRun } from './floor-run';
import type { FloorContext } from './floor-context';

export function oldFloor(context: FloorContext, steps: string[], sinkUrl: string): FloorRun {
  const { tableName: TableName, doc, keys, keyHash } = context;
  return floorRun(steps, TableName, doc, async (timed, counting, n) => {
    const key = await timed(0, () => doc.send(new GetCommand({ TableName, Key: keys.apiKeyHash(keyHash), ConsistentRead: true })));
    const owner = await timed(1, () =>
      doc.send(new GetCommand({ TableName, Key: keys.account(key.Item!.account_id as string), ConsistentRead: true })),
    );
    const ownerId = owner.Item!.id as string;
    const claim = await timed(2, () =>
      doc.send(new GetCommand({ TableName, Key: keys.domainName(context.domainName), ConsistentRead: true })),
    );
    await timed(3, () => doc.send(new GetCommand({ TableName, Key: keys.domain(claim.Item!.domain_id as string), ConsistentRead: true })));
    const to = context.recipient(n);
    await timed(4, () =>
      doc.send(
        new BatchGetCommand({
          RequestItems: {
            [TableName]: {
              Keys: [keys.suppression(ownerId, to, null)],
              ConsistentRead: true,
              ProjectionExpression: '#p0',
              ExpressionAttributeNames: { '#p0': 'email' },
            },
          },
        }),
      ),
    );
    const item = context.emailItem(n, false);
    const day = new Date().toISOString().slice(0, 10);
    const usage = (period: 'DAY' | 'MONTH', value: string) => ({
      Update: {
        TableName,
        Key: keys.usage(ownerId, 'PLAN', period, value),
        UpdateExpression: 'ADD #count :n',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':n': 1 },
      },
    });
    await timed(5, () =>
      context.transactWrite(counting, [
        { Put: { TableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
        usage('DAY', day),
        usage('MONTH', day.slice(0, 7)),
      ]),
    );
    await timed(6, () =>
      context.sqs.send(new SendMessageCommand({ QueueUrl: sinkUrl, MessageBody: JSON.stringify({ email_id: item.id }) })),
    );
  });
}
