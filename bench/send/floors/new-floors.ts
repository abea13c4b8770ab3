/**
 * The `new` and `new-put` floors: the rebuilt send path, one consistent BatchGetItem of key, account,
 * domain claim and suppression, then the email written by a one-item transaction (with a ConditionCheck
 * on the key under --floor-condition-check) or by a conditional PutItem.
 */
import { BatchGetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { floorRun, type FloorRun } from './floor-run';
import type { FloorContext } from './floor-context';

/**
 * The send's one read as a floor issues it: one strongly consistent BatchGetItem of the key (an API key's or
 * an SMTP credential's hash), the account, the sender domain's claim and the recipient's suppression.
 */
export function sendContextRead(
  context: Pick<FloorContext, 'tableName' | 'doc' | 'keys' | 'keyHash' | 'accountId' | 'domainName'>,
  recipient: string,
) {
  const { tableName: TableName, keys } = context;
  return context.doc.send(
    new BatchGetCommand({
      RequestItems: {
        [TableName]: {
          Keys: [
            keys.apiKeyHash(context.keyHash),
            keys.account(context.accountId),
            keys.domainName(context.domainName),
            keys.suppression(context.accountId, recipient, null),
          ],
          ConsistentRead: true,
        },
      },
    }),
  );
}

const contextRead = (context: FloorContext, n: number) => sendContextRead(context, context.recipient(n));

export function newFloor(context: FloorContext, steps: string[], conditionCheck: boolean): FloorRun {
  const { tableName: TableName, keys } = context;
  return floorRun(steps, TableName, context.doc, async (timed, counting, n) => {
    await timed(0, () => contextRead(context, n));
    const item = context.emailItem(n, true);
    await timed(1, () =>
      context.transactWrite(counting, [
        { Put: { TableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
        ...(conditionCheck
          ? [{ ConditionCheck: { TableName, Key: keys.apiKeyHash(context.keyHash), ConditionExpression: 'attribute_exists(PK)' } }]
          : []),
      ]),
    );
  });
}

export function newPutFloor(context: FloorContext, steps: string[]): FloorRun {
  const { tableName: TableName, doc } = context;
  return floorRun(steps, TableName, doc, async (timed, _counting, n) => {
    await timed(0, () => contextRead(context, n));
    const item = context.emailItem(n, true);
    await timed(1, () => doc.send(new PutCommand({ TableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' })));
  });
}
