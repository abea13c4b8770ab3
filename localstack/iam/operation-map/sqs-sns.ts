/**
 * The operation map's SQS and SNS entries (../operations.ts assembles the table).
 *
 * SQS: a batch is authorized as its single action (SendMessageBatch -> sqs:SendMessage...)
 * (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-api-permissions-reference.html).
 */
import { UnsupportedRequestError } from '../errors';
import { required, sqsQueueArn } from '../operation-arns';
import type { Mapper } from './mapper';

function queue(action: string): Mapper {
  return (input, env) => {
    const arn = sqsQueueArn(env, required(input, 'QueueUrl', `sqs:${action}`));
    return [{ action: `sqs:${action}`, resource: arn, context: {}, policyHolder: arn }];
  };
}

const getQueueUrl: Mapper = (input, env) => {
  const name = required(input, 'QueueName', 'sqs:GetQueueUrl');
  const account = typeof input.QueueOwnerAWSAccountId === 'string' ? input.QueueOwnerAWSAccountId : env.accountId;
  const arn = `arn:${env.partition}:sqs:${env.region}:${account}:${name}`;
  return [{ action: 'sqs:GetQueueUrl', resource: arn, context: {}, policyHolder: arn }];
};

const snsPublish: Mapper = (input) => {
  if (input.TargetArn !== undefined || input.PhoneNumber !== undefined)
    throw new UnsupportedRequestError('sns:Publish to a TargetArn or PhoneNumber is not mapped; only TopicArn');
  const topic = required(input, 'TopicArn', 'sns:Publish');
  return [{ action: 'sns:Publish', resource: topic, context: {}, policyHolder: topic }];
};

export const SQS_SNS_OPERATIONS: Readonly<Record<string, Mapper>> = {
  'SQS.SendMessage': queue('SendMessage'),
  'SQS.SendMessageBatch': queue('SendMessage'),
  'SQS.ReceiveMessage': queue('ReceiveMessage'),
  'SQS.DeleteMessage': queue('DeleteMessage'),
  'SQS.DeleteMessageBatch': queue('DeleteMessage'),
  'SQS.ChangeMessageVisibility': queue('ChangeMessageVisibility'),
  'SQS.ChangeMessageVisibilityBatch': queue('ChangeMessageVisibility'),
  'SQS.GetQueueAttributes': queue('GetQueueAttributes'),
  'SQS.GetQueueUrl': getQueueUrl,
  'SNS.Publish': snsPublish,
};
