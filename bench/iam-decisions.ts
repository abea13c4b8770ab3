/**
 * Cost of the local IAM enforcement (localstack/iam; docs/local-cloud/iam.md, "Cost"). Prints, never asserts.
 *
 *   npx tsx bench/iam-decisions.ts [--requests 20000]
 *
 * A send-email-like role (7 statements: table and index, queue, bucket, SES identity and configuration
 * set with a condition, KMS with an encryption-context condition, scheduler and PassRole) and a KMS key
 * policy trusting the account. Three figures, in microseconds per decision:
 * - uncached: every request distinct (a new S3 object key each time), so each is validated against the
 *   Service Authorization Reference and evaluated;
 * - cached: the same 15 requests over and over (what a function's steady traffic mostly is);
 * - evaluate() alone, uncached: the policy logic without the reference check and the cache.
 */
import { Authorizer } from '#localstack/iam/authorize';
import type { Principal } from '#localstack/iam/caller';
import { evaluate } from '#localstack/iam/evaluate';
import type { MappedRequest } from '#localstack/iam/operations';
import type { PolicyDocument } from '#localstack/iam/policy';

const requests = Number(process.argv[process.argv.indexOf('--requests') + 1]) || 20_000;
const ACCOUNT = '000000000000';
const R = `us-east-1:${ACCOUNT}`;
const TABLE = `arn:aws:dynamodb:${R}:table/mailservice-main`;
const KEY = `arn:aws:kms:${R}:key/0b0c1d2e-3f40-4152-8364-758697a8b9ca`;
const policy: PolicyDocument = {
  Version: '2012-10-17',
  Statement: [
    {
      Effect: 'Allow',
      Action: [
        'dynamodb:BatchGetItem',
        'dynamodb:GetItem',
        'dynamodb:Query',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
        'dynamodb:ConditionCheckItem',
      ],
      Resource: [TABLE, `${TABLE}/index/*`],
    },
    {
      Effect: 'Allow',
      Action: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'],
      Resource: `arn:aws:sqs:${R}:mailservice-webhook-events`,
    },
    {
      Effect: 'Allow',
      Action: ['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:PutObject'],
      Resource: ['arn:aws:s3:::mailservice-mail', 'arn:aws:s3:::mailservice-mail/*'],
    },
    {
      Effect: 'Allow',
      Action: ['ses:SendEmail', 'ses:SendRawEmail'],
      Resource: [`arn:aws:ses:${R}:identity/*`, `arn:aws:ses:${R}:configuration-set/mailservice-outbound`],
      Condition: { StringEquals: { 'ses:ApiVersion': '2' } },
    },
    {
      Effect: 'Allow',
      Action: 'kms:Decrypt',
      Resource: KEY,
      Condition: { 'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['purpose', 'account'] } },
    },
    {
      Effect: 'Allow',
      Action: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'],
      Resource: `arn:aws:scheduler:${R}:schedule/mailservice/*`,
    },
    {
      Effect: 'Allow',
      Action: 'iam:PassRole',
      Resource: `arn:aws:iam::${ACCOUNT}:role/scheduler`,
      Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
    },
  ],
};
const keyPolicy: PolicyDocument = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` }, Action: 'kms:*', Resource: '*' }],
};
const principal: Principal = { functionName: 'send-email', roleArn: `arn:aws:iam::${ACCOUNT}:role/SendEmailRole`, policies: [policy] };
const authorizer = new Authorizer({
  partition: 'aws',
  region: 'us-east-1',
  accountId: ACCOUNT,
  resourcePolicyOf: (arn) => (arn === KEY ? keyPolicy : undefined),
});

const CASES: MappedRequest[] = [
  { action: 'dynamodb:GetItem', resource: TABLE, context: {}, absentKeys: ['dynamodb:EnclosingOperation'] },
  { action: 'dynamodb:Query', resource: `${TABLE}/index/GSI2`, context: {} },
  { action: 'dynamodb:PutItem', resource: TABLE, context: { 'dynamodb:EnclosingOperation': 'TransactWriteItems' } },
  { action: 'dynamodb:Scan', resource: TABLE, context: {} },
  { action: 'sqs:SendMessage', resource: `arn:aws:sqs:${R}:mailservice-webhook-events`, context: {} },
  { action: 'sqs:SendMessage', resource: `arn:aws:sqs:${R}:mailservice-send`, context: {} },
  { action: 's3:GetObject', resource: 'arn:aws:s3:::mailservice-mail/raw/1.eml', context: {} },
  { action: 's3:DeleteObject', resource: 'arn:aws:s3:::mailservice-mail/raw/1.eml', context: {} },
  {
    action: 'ses:SendEmail',
    resource: `arn:aws:ses:${R}:identity/example.com`,
    context: { 'ses:ApiVersion': '2', 'ses:Recipients': ['a@b.c'] },
  },
  { action: 'ses:SendEmail', resource: `arn:aws:ses:${R}:configuration-set/mailservice-outbound`, context: { 'ses:ApiVersion': '2' } },
  { action: 'ses:SendEmail', resource: `arn:aws:ses:${R}:configuration-set/other`, context: { 'ses:ApiVersion': '2' } },
  {
    action: 'kms:Decrypt',
    resource: KEY,
    context: { 'kms:EncryptionContextKeys': ['purpose', 'account'], 'kms:EncryptionContext:purpose': 'dkim' },
    absentKeys: ['kms:EncryptionContext:*'],
    policyHolder: KEY,
    policyKind: 'kms-key',
  },
  {
    action: 'kms:Encrypt',
    resource: KEY,
    context: {},
    absentKeys: ['kms:EncryptionContext:*', 'kms:EncryptionContextKeys'],
    policyHolder: KEY,
    policyKind: 'kms-key',
  },
  { action: 'scheduler:CreateSchedule', resource: `arn:aws:scheduler:${R}:schedule/mailservice/e1`, context: {} },
  {
    action: 'iam:PassRole',
    resource: `arn:aws:iam::${ACCOUNT}:role/scheduler`,
    context: { 'iam:PassedToService': 'scheduler.amazonaws.com' },
  },
];

async function time(label: string, run: (i: number) => Promise<unknown> | unknown): Promise<void> {
  for (let i = 0; i < 500; i += 1) await run(i); // warm-up (loads the reference's JSON per service)
  const started = process.hrtime.bigint();
  for (let i = 0; i < requests; i += 1) await run(i);
  const micros = Number(process.hrtime.bigint() - started) / 1000 / requests;
  console.log(`${label.padEnd(44)} ${micros.toFixed(2).padStart(8)} µs per decision`);
}

async function main(): Promise<void> {
  const loadStarted = process.hrtime.bigint();
  await Promise.all(CASES.map((request) => authorizer.decide(principal, request)));
  console.log(`first decisions (loads iam-data for 6 services): ${(Number(process.hrtime.bigint() - loadStarted) / 1e6).toFixed(1)} ms`);
  const allowed = (await Promise.all(CASES.map((request) => authorizer.decide(principal, request)))).filter(
    (v) => v.decision.effect === 'Allow',
  ).length;
  console.log(`${CASES.length} cases, ${allowed} allowed; ${requests} decisions per figure`);
  await time('uncached (distinct S3 keys, reference check)', (i) =>
    authorizer.decide(principal, {
      action: 's3:GetObject',
      resource: `arn:aws:s3:::mailservice-mail/raw/${i}-${Math.random()}.eml`,
      context: {},
    }),
  );
  await time('cached (15 cases repeated)', (i) => authorizer.decide(principal, CASES[i % CASES.length] as MappedRequest));
  const caller = {
    kind: 'role-session' as const,
    partition: 'aws',
    accountId: ACCOUNT,
    roleArn: principal.roleArn,
    sessionArn: `arn:aws:sts::${ACCOUNT}:assumed-role/SendEmailRole/send-email`,
  };
  const policies = { identityPolicies: [{ name: 'p', document: policy }] };
  await time('evaluate() alone, uncached', (i) =>
    evaluate(
      { ...(CASES[i % 11] as MappedRequest), context: { ...(CASES[i % 11] as MappedRequest).context, 'aws:SecureTransport': 'true' } },
      caller,
      policies,
    ),
  );
}

void main();
