/**
 * IAM enforcement on real SDK calls (localstack/iam): clients built by the product's own factories, the
 * enforcement hook installed, calls made under runAs(a principal with a hand-written policy) against the
 * running local cloud's emulators. Allowed calls reach the emulator (and succeed, or fail with the
 * emulator's own answer); denied calls fail with the SDK's own AccessDenied exception for that service and
 * protocol, with AWS's message. KMS runs on the KMS emulator started here (the stack does not start it yet).
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { CreateKeyCommand, DecryptCommand, EncryptCommand, KMSServiceException } from '@aws-sdk/client-kms';
import { ListHostedZonesByNameCommand, ListResourceRecordSetsCommand, Route53ServiceException } from '@aws-sdk/client-route-53';
import { GetObjectCommand, PutObjectCommand, S3ServiceException } from '@aws-sdk/client-s3';
import { CreateScheduleCommand, DeleteScheduleCommand, GetScheduleCommand, SchedulerServiceException } from '@aws-sdk/client-scheduler';
import { GetAccountCommand, GetEmailIdentityCommand, SendEmailCommand, SESv2ServiceException } from '@aws-sdk/client-sesv2';
import { CreateQueueCommand, GetQueueAttributesCommand, SendMessageCommand, SQSServiceException } from '@aws-sdk/client-sqs';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { startKmsEmulator, type KmsEmulator } from '#localstack/emulators/kms';
import {
  installIamEnforcement,
  runAs,
  type IamDecisionEvent,
  type IamEnforcement,
  type PolicyDocument,
  type Principal,
} from '#localstack/iam/install';
import { createRoute53Client } from '#shared/adapters/aws/route53-client';
import { createS3Client } from '#shared/adapters/aws/s3-client';
import { createSchedulerClient } from '#shared/adapters/aws/scheduler-client';
import { createSesClient } from '#shared/adapters/aws/ses-clients';
import { createSqsClient } from '#shared/adapters/aws/sqs-client';
import { createDynamoClient } from '#shared/adapters/aws/dynamo-client';
import { createKmsClient } from '#shared/adapters/aws/kms-client';
import { loadConfig, type Config } from '#shared/config/config';
import { stack } from './harness/stack';

const RUN = randomUUID().slice(0, 8);
let config: Config;
let kms: KmsEmulator;
let enforcement: IamEnforcement;
let keyArn: string;
let queueUrl: string;
const decisions: IamDecisionEvent[] = [];

const arn = (service: string, resource: string) => `arn:aws:${service}:${config.region}:${config.accountId}:${resource}`;

function policy(): PolicyDocument {
  const table = arn('dynamodb', `table/${config.tableName}`);
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'Items',
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:Query'],
        Resource: table,
      },
      { Sid: 'NoDeleteOfKept', Effect: 'Deny', Action: 'dynamodb:DeleteItem', Resource: table },
      { Sid: 'Queue', Effect: 'Allow', Action: 'sqs:SendMessage', Resource: arn('sqs', `iam-test-${RUN}`) },
      {
        Sid: 'Objects',
        Effect: 'Allow',
        Action: ['s3:PutObject', 's3:GetObject'],
        Resource: `arn:aws:s3:::${config.mailBucket}/iam-test/*`,
      },
      { Sid: 'SesRead', Effect: 'Allow', Action: ['ses:GetAccount', 'ses:GetEmailIdentity'], Resource: '*' },
      {
        Sid: 'Schedules',
        Effect: 'Allow',
        Action: ['scheduler:CreateSchedule', 'scheduler:GetSchedule', 'scheduler:DeleteSchedule'],
        Resource: arn('scheduler', `schedule/${config.scheduleGroup}/iam-test-*`),
      },
      {
        Sid: 'PassSchedulerRole',
        Effect: 'Allow',
        Action: 'iam:PassRole',
        Resource: config.schedulerRoleArn,
        Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      },
      { Sid: 'Zones', Effect: 'Allow', Action: 'route53:ListHostedZonesByName', Resource: '*' },
      {
        Sid: 'Secrets',
        Effect: 'Allow',
        Action: ['kms:Encrypt', 'kms:Decrypt'],
        Resource: keyArn,
        Condition: { StringEquals: { 'kms:EncryptionContext:purpose': 'iam-test' } },
      },
    ],
  };
}

let principal: Principal;
const as = <T>(fn: () => Promise<T>) => runAs(principal, fn);
const session = () => `arn:aws:sts::${config.accountId}:assumed-role/iam-test-role/iam-test-function`;

/** The SDK's own exception: class, name, status, client fault, one attempt, AWS's message. */
async function expectDenied(
  call: Promise<unknown>,
  exceptionClass: abstract new (...args: never[]) => Error,
  name: string,
  status: number,
  message: RegExp,
): Promise<void> {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as (Error & { $metadata?: { httpStatusCode?: number; attempts?: number }; $fault?: string }) | undefined;
  expect(error).toBeInstanceOf(exceptionClass);
  expect(error).toMatchObject({ name, $fault: 'client', $metadata: { httpStatusCode: status, attempts: 1 } });
  expect(error?.message).toMatch(message);
}

const notAuthorized = (action: string, resource: string, why = `because no identity-based policy allows the ${action} action`) =>
  new RegExp(
    `^User: ${session().replace(/[/.]/g, '\\$&')} is not authorized to perform: ${action} on resource: ${resource.replace(/[/.*]/g, '\\$&')} ${why}$`,
  );

beforeAll(async () => {
  stack();
  config = loadConfig(process.env);
  kms = await startKmsEmulator({ region: config.region, accountId: config.accountId });
  process.env.AWS_ENDPOINT_URL_KMS = kms.url;
  enforcement = installIamEnforcement({
    accountId: config.accountId,
    region: config.region,
    resourcePolicyOf: (resource) => {
      const keyPolicy = kms.keyPolicyOf(resource);
      return keyPolicy ? (JSON.parse(keyPolicy) as PolicyDocument) : undefined;
    },
    kmsAliasTarget: (alias) => kms.resolveKeyArn(alias),
    onDecision: (event) => decisions.push(event),
  });
  // Fixtures, made as the local cloud itself (no principal: not evaluated).
  const created = await createKmsClient(config).send(new CreateKeyCommand({ Description: 'iam test' }));
  keyArn = created.KeyMetadata?.Arn as string;
  queueUrl = (await createSqsClient(config).send(new CreateQueueCommand({ QueueName: `iam-test-${RUN}` }))).QueueUrl as string;
  principal = {
    functionName: 'iam-test-function',
    roleArn: `arn:aws:iam::${config.accountId}:role/iam-test-role`,
    policies: [{ name: 'IamTestPolicy', document: policy() }],
  };
});

afterAll(async () => {
  enforcement?.();
  delete process.env.AWS_ENDPOINT_URL_KMS;
  await kms?.stop();
});

test('DynamoDB: items allowed on the table; an index it does not grant and an explicit Deny are AccessDeniedException (400)', async () => {
  const dynamo = createDynamoClient(config);
  const Key = { PK: `IAMTEST#${RUN}`, SK: 'A' };
  await as(() => dynamo.send(new PutCommand({ TableName: config.tableName, Item: { ...Key, value: 1 } })));
  const got = await as(() => dynamo.send(new GetCommand({ TableName: config.tableName, Key })));
  expect(got.Item).toMatchObject({ value: 1 });
  await as(() =>
    dynamo.send(
      new QueryCommand({ TableName: config.tableName, KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': Key.PK } }),
    ),
  );

  const index = arn('dynamodb', `table/${config.tableName}/index/GSI1`);
  await expectDenied(
    as(() =>
      dynamo.send(
        new QueryCommand({
          TableName: config.tableName,
          IndexName: 'GSI1',
          KeyConditionExpression: 'GSI1PK = :p',
          ExpressionAttributeValues: { ':p': 'x' },
        }),
      ),
    ),
    DynamoDBServiceException,
    'AccessDeniedException',
    400,
    notAuthorized('dynamodb:Query', index),
  );
  const table = arn('dynamodb', `table/${config.tableName}`);
  await expectDenied(
    as(() => dynamo.send(new DeleteCommand({ TableName: config.tableName, Key }))),
    DynamoDBServiceException,
    'AccessDeniedException',
    400,
    notAuthorized('dynamodb:DeleteItem', table, 'with an explicit deny in an identity-based policy'),
  );
  // A transaction is its items' actions: the Put is granted, the ConditionCheck (dynamodb:ConditionCheckItem) is not.
  await expectDenied(
    as(() =>
      dynamo.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: config.tableName, Item: { PK: `IAMTEST#${RUN}`, SK: 'B' } } },
            { ConditionCheck: { TableName: config.tableName, Key, ConditionExpression: 'attribute_exists(PK)' } },
          ],
        }),
      ),
    ),
    DynamoDBServiceException,
    'AccessDeniedException',
    400,
    notAuthorized('dynamodb:ConditionCheckItem', table),
  );
  const transaction = decisions.filter((d) => d.operation === 'DynamoDB.TransactWriteItems').at(-1);
  expect(transaction?.requests.map((r) => [r.action, r.effect])).toEqual([
    ['dynamodb:PutItem', 'Allow'],
    ['dynamodb:ConditionCheckItem', 'ImplicitDeny'],
  ]);
  // The item is still there: the denied calls never reached DynamoDB. (Cleaned up as the local cloud itself.)
  const unenforced = createDynamoClient(config);
  expect((await unenforced.send(new GetCommand({ TableName: config.tableName, Key }))).Item).toBeDefined();
  await unenforced.send(new DeleteCommand({ TableName: config.tableName, Key }));
});

test('SQS: SendMessage allowed on its queue; GetQueueAttributes and another queue are AccessDenied (400, query-compatible code)', async () => {
  const sqs = createSqsClient(config);
  const sent = await as(() => sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'hello' })));
  expect(sent.MessageId).toEqual(expect.any(String));
  await expectDenied(
    as(() => sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }))),
    SQSServiceException,
    'AccessDenied',
    400,
    notAuthorized('sqs:GetQueueAttributes', arn('sqs', `iam-test-${RUN}`)),
  );
  await expectDenied(
    as(() => sqs.send(new SendMessageCommand({ QueueUrl: config.sendQueueUrl, MessageBody: '{}' }))),
    SQSServiceException,
    'AccessDenied',
    400,
    /sqs:SendMessage on resource: arn:aws:sqs:/,
  );
});

test('S3: objects under the granted prefix; elsewhere AccessDenied (403)', async () => {
  const s3 = createS3Client(config);
  await as(() => s3.send(new PutObjectCommand({ Bucket: config.mailBucket, Key: `iam-test/${RUN}.txt`, Body: 'x' })));
  const object = await as(() => s3.send(new GetObjectCommand({ Bucket: config.mailBucket, Key: `iam-test/${RUN}.txt` })));
  expect(await object.Body?.transformToString()).toBe('x');
  await expectDenied(
    as(() => s3.send(new PutObjectCommand({ Bucket: config.mailBucket, Key: `elsewhere/${RUN}.txt`, Body: 'x' }))),
    S3ServiceException,
    'AccessDenied',
    403,
    notAuthorized('s3:PutObject', `arn:aws:s3:::${config.mailBucket}/elsewhere/${RUN}.txt`),
  );
});

test('SES v2: reads allowed (the emulator answers); SendEmail is AccessDeniedException (403) on the sending identity', async () => {
  const ses = createSesClient(config);
  await as(() => ses.send(new GetAccountCommand({})));
  // Allowed, so the emulator answers, with its own NotFoundException.
  await expect(as(() => ses.send(new GetEmailIdentityCommand({ EmailIdentity: `iam-${RUN}.example.test` })))).rejects.toMatchObject({
    name: 'NotFoundException',
  });
  await expectDenied(
    as(() =>
      ses.send(
        new SendEmailCommand({
          FromEmailAddress: `a@iam-${RUN}.example.test`,
          Destination: { ToAddresses: ['b@example.test'] },
          ConfigurationSetName: config.sesConfigurationSet,
          Content: { Raw: { Data: Buffer.from('Subject: x\r\n\r\nx') } },
        }),
      ),
    ),
    SESv2ServiceException,
    'AccessDeniedException',
    403,
    notAuthorized('ses:SendEmail', arn('ses', `identity/a@iam-${RUN}.example.test`)),
  );
});

test('Scheduler: CreateSchedule allowed with the scheduler role; passing another role is denied on iam:PassRole (403)', async () => {
  const scheduler = createSchedulerClient(config);
  const schedule = (Name: string, RoleArn: string) =>
    new CreateScheduleCommand({
      Name,
      GroupName: config.scheduleGroup,
      ScheduleExpression: 'at(2099-01-01T00:00:00)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: config.schedulerTargetArn, RoleArn, Input: '{}' },
    });
  await as(() => scheduler.send(schedule(`iam-test-${RUN}`, config.schedulerRoleArn)));
  expect((await as(() => scheduler.send(new GetScheduleCommand({ Name: `iam-test-${RUN}`, GroupName: config.scheduleGroup })))).Name).toBe(
    `iam-test-${RUN}`,
  );
  await as(() => scheduler.send(new DeleteScheduleCommand({ Name: `iam-test-${RUN}`, GroupName: config.scheduleGroup })));
  const otherRole = `arn:aws:iam::${config.accountId}:role/some-other-role`;
  await expectDenied(
    as(() => scheduler.send(schedule(`iam-test-${RUN}-2`, otherRole))),
    SchedulerServiceException,
    'AccessDeniedException',
    403,
    notAuthorized('iam:PassRole', otherRole),
  );
  await expectDenied(
    as(() => scheduler.send(schedule(`other-${RUN}`, config.schedulerRoleArn))),
    SchedulerServiceException,
    'AccessDeniedException',
    403,
    /scheduler:CreateSchedule on resource: .*schedule\/.*\/other-/,
  );
});

test("Route 53: ListHostedZonesByName allowed; ListResourceRecordSets AccessDenied (403); a customer's credentials are not the role's", async () => {
  const route53 = createRoute53Client(config, null);
  await as(() => route53.send(new ListHostedZonesByNameCommand({ DNSName: 'example.test' })));
  await expectDenied(
    as(() => route53.send(new ListResourceRecordSetsCommand({ HostedZoneId: 'Z0IAMTEST' }))),
    Route53ServiceException,
    'AccessDenied',
    403,
    notAuthorized('route53:ListResourceRecordSets', 'arn:aws:route53:::hostedzone/Z0IAMTEST'),
  );
  const before = decisions.length;
  const customer = createRoute53Client(config, { accessKeyId: 'AKIACUSTOMER', secretAccessKey: 'secret' });
  // Not evaluated against the role: the emulator itself answers (it does not know this key).
  await expect(as(() => customer.send(new ListResourceRecordSetsCommand({ HostedZoneId: 'Z0IAMTEST' })))).rejects.toMatchObject({
    name: 'InvalidClientTokenId',
  });
  expect(decisions.length).toBe(before);
});

test('KMS: the key policy (trusting the account) delegates to the role policy and its encryption-context condition', async () => {
  const client = createKmsClient(config);
  const sealed = await as(() =>
    client.send(new EncryptCommand({ KeyId: keyArn, Plaintext: Buffer.from('secret'), EncryptionContext: { purpose: 'iam-test' } })),
  );
  const opened = await as(() =>
    client.send(new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob, EncryptionContext: { purpose: 'iam-test' } })),
  );
  expect(Buffer.from(opened.Plaintext as Uint8Array).toString()).toBe('secret');
  await expectDenied(
    as(() => client.send(new EncryptCommand({ KeyId: keyArn, Plaintext: Buffer.from('x'), EncryptionContext: { purpose: 'other' } }))),
    KMSServiceException,
    'AccessDeniedException',
    400,
    notAuthorized('kms:Encrypt', keyArn),
  );
});

test('calls with no principal are the local cloud itself: not evaluated', async () => {
  const before = decisions.length;
  await createSqsClient(config).send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }));
  expect(decisions.length).toBe(before);
});
