/**
 * The operation map's DynamoDB and DynamoDB Streams entries (../operations.ts assembles the table).
 *
 * DynamoDB: https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazondynamodb.html;
 * a Query/Scan with IndexName is authorized on the index ARN
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html);
 * TransactWriteItems/TransactGetItems are not IAM actions: each item is authorized as its own action with
 * dynamodb:EnclosingOperation (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis-iam.html);
 * BatchGetItem/BatchWriteItem are authorized once per table
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/api-permissions-reference.html).
 * dynamodb:LeadingKeys and dynamodb:Attributes are not supplied (they need the table's key schema): a
 * policy that reads them throws.
 */
import { UnsupportedRequestError } from '../errors';
import { dynamoReadArn, dynamoTableArn, required, type Input } from '../operation-arns';
import { optionalKeys, type Mapper, type MappedRequest } from './mapper';

const DYNAMO_OPTIONAL = {
  'dynamodb:ReturnValues': 'ReturnValues',
  'dynamodb:ReturnConsumedCapacity': 'ReturnConsumedCapacity',
  'dynamodb:Select': 'Select',
};

function dynamoItem(action: string, enclosing?: 'TransactWriteItems' | 'TransactGetItems'): Mapper {
  return (input, env) => {
    const { context, absentKeys = [] } = optionalKeys(input, DYNAMO_OPTIONAL);
    const operation = `dynamodb:${action}`;
    return [
      {
        action: operation,
        resource: dynamoTableArn(env, required(input, 'TableName', operation)),
        context: enclosing ? { ...context, 'dynamodb:EnclosingOperation': enclosing } : context,
        absentKeys: enclosing ? absentKeys : [...absentKeys, 'dynamodb:EnclosingOperation'],
      },
    ];
  };
}

function dynamoRead(action: 'Query' | 'Scan'): Mapper {
  return (input, env) => [
    { action: `dynamodb:${action}`, resource: dynamoReadArn(env, input, `dynamodb:${action}`), ...optionalKeys(input, DYNAMO_OPTIONAL) },
  ];
}

function dynamoBatch(action: 'BatchGetItem' | 'BatchWriteItem'): Mapper {
  return (input, env) => {
    const tables = Object.keys((input.RequestItems ?? {}) as object);
    if (tables.length === 0) throw new UnsupportedRequestError(`dynamodb:${action}: RequestItems names no table`);
    return tables.map((table) => ({
      action: `dynamodb:${action}`,
      resource: dynamoTableArn(env, table),
      ...optionalKeys(input, DYNAMO_OPTIONAL),
    }));
  };
}

const TRANSACT_WRITE_ACTIONS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

const transactWrite: Mapper = (input, env) =>
  ((input.TransactItems ?? []) as Input[]).flatMap((item) => {
    const [kind, ...others] = Object.keys(item).filter((k) => item[k] !== undefined);
    const action = kind ? TRANSACT_WRITE_ACTIONS[kind] : undefined;
    if (!action || others.length > 0)
      throw new UnsupportedRequestError(
        `dynamodb TransactWriteItems: item with ${JSON.stringify(Object.keys(item))} is not one of Put, Update, Delete, ConditionCheck`,
      );
    return dynamoItem(action, 'TransactWriteItems')(item[kind as string] as Input, env);
  });

const transactGet: Mapper = (input, env) =>
  ((input.TransactItems ?? []) as Input[]).flatMap((item) => {
    if (!item.Get) throw new UnsupportedRequestError('dynamodb TransactGetItems: an item without Get');
    return dynamoItem('GetItem', 'TransactGetItems')(item.Get as Input, env);
  });

const streamRequest = (action: string, resource: string): MappedRequest[] => [{ action: `dynamodb:${action}`, resource, context: {} }];

export const DYNAMODB_OPERATIONS: Readonly<Record<string, Mapper>> = {
  'DynamoDB.GetItem': dynamoItem('GetItem'),
  'DynamoDB.PutItem': dynamoItem('PutItem'),
  'DynamoDB.UpdateItem': dynamoItem('UpdateItem'),
  'DynamoDB.DeleteItem': dynamoItem('DeleteItem'),
  'DynamoDB.Query': dynamoRead('Query'),
  'DynamoDB.Scan': dynamoRead('Scan'),
  'DynamoDB.BatchGetItem': dynamoBatch('BatchGetItem'),
  'DynamoDB.BatchWriteItem': dynamoBatch('BatchWriteItem'),
  'DynamoDB.TransactWriteItems': transactWrite,
  'DynamoDB.TransactGetItems': transactGet,
  'DynamoDB.DescribeTable': (input, env) => [
    {
      action: 'dynamodb:DescribeTable',
      resource: dynamoTableArn(env, required(input, 'TableName', 'dynamodb:DescribeTable')),
      context: {},
    },
  ],
  'DynamoDBStreams.DescribeStream': (input) => streamRequest('DescribeStream', required(input, 'StreamArn', 'dynamodb:DescribeStream')),
  'DynamoDBStreams.GetShardIterator': (input) =>
    streamRequest('GetShardIterator', required(input, 'StreamArn', 'dynamodb:GetShardIterator')),
  'DynamoDBStreams.GetRecords': (input, env) => {
    const stream = env.streamOfShardIterator?.(required(input, 'ShardIterator', 'dynamodb:GetRecords'));
    if (!stream)
      throw new UnsupportedRequestError(
        'dynamodb:GetRecords: the shard iterator was not obtained through an enforced client, so its stream is unknown',
      );
    return streamRequest('GetRecords', stream);
  },
  'DynamoDBStreams.ListStreams': () => streamRequest('ListStreams', '*'),
};
