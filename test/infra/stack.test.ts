/**
 * The synthesised stack matches infra/definitions: table, queues + DLQs, topic subscriptions,
 * scheduler, SES configuration set, one Lambda per API group / worker / stream worker, routes, event
 * sources (SQS, and the table's stream with its filters, retries and on-failure queue),
 * environment and outputs. Synthesised once, with CDK's CloudFormation validation on (the feature
 * flag of cdk.json turns its findings into synthesis errors).
 */
import { Match } from 'aws-cdk-lib/assertions';
import { apiRoutes } from '#infra/api-routes';
import { ACCESS_LOG_RETENTION_DAYS, declaredIndexes } from '#infra/constructs/data';
import { sendConcurrencyForRate, sesRateFrom, workerConcurrencyOverrides } from '#infra/worker-concurrency';
import { tableWarmThroughput } from '#infra/table-warm-throughput';
import { tableCapacity, TARGET_UTILIZATION_PERCENT } from '#infra/table-capacity';
import { toEmailSendingEvent } from '#infra/constructs/email';
import { FUNCTION_MEMORY_MB } from '#infra/constructs/service-function';
import {
  API_GROUPS,
  BUCKETS,
  MTA_STS_API,
  CONFIGURATION_SET,
  QUEUES,
  SCHEDULE_GROUP,
  SECRETS_KEY,
  SETTINGS,
  SCHEDULED_TASKS,
  STREAM_WORKERS,
  TABLE,
  TOPICS,
  WORKERS,
  type Grant,
  type QueueId,
  type TopicId,
} from '#infra/definitions';
import { tlsRequiredConfigurationSet } from '#shared/adapters/aws/ses-configuration-sets';
import { ENV } from '#shared/config/config';
import { functionEnv, functionOf, functionProperties, logicalId, synth, type Synthesised } from './helpers';

let s: Synthesised;
beforeAll(() => {
  s = synth({ validation: true });
});
afterAll(() => s?.cleanup());

const ids = (o: Record<string, unknown>): string[] => Object.keys(o);
const queueId = (id: QueueId): string => logicalId(s.stack, s.stack.messaging.queues[id]);
const dlqId = (id: QueueId): string => logicalId(s.stack, s.stack.messaging.deadLetterQueues[id]);
const topicId = (id: TopicId): string => logicalId(s.stack, s.stack.messaging.topics[id]);
const fnId = (name: string): string => logicalId(s.stack, functionOf(s.stack, name));

/** Environment variables a definition's grants must produce. */
function expectedEnvVars(grants: Grant[]): string[] {
  return grants.flatMap(({ resource, access }) => {
    switch (resource.kind) {
      case 'table':
        return [TABLE.envVar];
      case 'queue':
        return [QUEUES[resource.id].envVar];
      case 'topic':
        return [TOPICS[resource.id].envVar];
      case 'bucket':
        return [BUCKETS[resource.id].envVar];
      case 'ses':
        // Identity management names no configuration set; tenant associations build ARNs from the account and the set.
        if (access === 'manageTenants' || access === 'sweepTenants') return [CONFIGURATION_SET.envVar, ENV.awsAccountId];
        return access === 'sendEmail' ? [CONFIGURATION_SET.envVar] : [];
      case 'scheduler':
        return [SCHEDULE_GROUP.envVar, SCHEDULE_GROUP.roleEnvVar, ...SCHEDULE_GROUP.targetQueues.map((target) => target.arnEnvVar)];
      case 'secretsKey':
        return [SECRETS_KEY.envVar];
      case 'route53':
        // Route 53 is found through the API (zones by name): nothing to name in the environment.
        return [];
      case 'certificates':
      case 'apiDomains':
        // Certificates and custom domain names are found by what the API answered (their ARN, their name).
        return [];
      default:
        // Every kind has its case (a new kind fails the typecheck here).
        throw new Error(`no environment variables known for ${JSON.stringify(resource satisfies never)}`);
    }
  });
}

describe('data', () => {
  test('table: PK/SK, PAY_PER_REQUEST, GSIs with their projections (the due index keys only), TTL, PITR, retained', () => {
    s.template.resourceCountIs('AWS::DynamoDB::Table', 1);
    s.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: TABLE.globalSecondaryIndexes.map((gsi) => ({
          IndexName: gsi.indexName,
          KeySchema: [
            { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
            { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: gsi.projection ?? 'ALL' },
        })),
        TimeToLiveSpecification: { AttributeName: TABLE.timeToLiveAttribute, Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        // The outbox and the tenant stats: the stream carries each item's new and old images to the stream workers.
        StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      },
    });
    expect(TABLE.stream).toBe('NEW_AND_OLD_IMAGES');
  });

  test('every bucket blocks public access, enforces SSL and is S3-encrypted', () => {
    // The buckets of BUCKETS and the logs bucket (their server access logs, the relay VPC's flow logs).
    s.template.resourceCountIs('AWS::S3::Bucket', ids(BUCKETS).length + 1);
    for (const bucket of [...Object.values(s.stack.data.buckets), s.stack.data.logsBucket]) {
      const id = logicalId(s.stack, bucket);
      s.template.hasResource('AWS::S3::Bucket', {
        DeletionPolicy: 'Retain',
        Properties: {
          PublicAccessBlockConfiguration: {
            BlockPublicAcls: true,
            BlockPublicPolicy: true,
            IgnorePublicAcls: true,
            RestrictPublicBuckets: true,
          },
          BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        },
      });
      s.template.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: id },
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    }
  });

  test('every bucket of BUCKETS writes server access logs to the logs bucket, which keeps them ACCESS_LOG_RETENTION_DAYS days', () => {
    const logsBucketId = logicalId(s.stack, s.stack.data.logsBucket);
    for (const bucket of Object.values(s.stack.data.buckets)) {
      s.template.hasResource('AWS::S3::Bucket', {
        Properties: Match.objectLike({
          LoggingConfiguration: { DestinationBucketName: { Ref: logsBucketId }, LogFilePrefix: Match.stringLikeRegexp('^s3-access/') },
        }),
      });
      expect(logicalId(s.stack, bucket)).not.toBe(logsBucketId);
    }
    s.template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: ACCESS_LOG_RETENTION_DAYS, Status: 'Enabled' })] },
    });
  });

  test('secrets key: one symmetric KMS key with rotation, retained, under the defined alias', () => {
    s.template.resourceCountIs('AWS::KMS::Key', 1);
    const keyId = logicalId(s.stack, s.stack.data.secretsKey);
    const key = s.template.toJSON().Resources[keyId];
    expect(key).toMatchObject({
      Type: 'AWS::KMS::Key',
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: { EnableKeyRotation: true },
    });
    // Symmetric encrypt/decrypt (the defaults): KeySpec/KeyUsage absent or default.
    expect(key.Properties.KeySpec ?? 'SYMMETRIC_DEFAULT').toBe('SYMMETRIC_DEFAULT');
    expect(key.Properties.KeyUsage ?? 'ENCRYPT_DECRYPT').toBe('ENCRYPT_DECRYPT');
    s.template.resourceCountIs('AWS::KMS::Alias', 1);
    s.template.hasResourceProperties('AWS::KMS::Alias', { AliasName: SECRETS_KEY.alias, TargetKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
  });

  test('secrets key policy: only the account (root) is trusted, so access comes from IAM grants alone', () => {
    const key = s.template.toJSON().Resources[logicalId(s.stack, s.stack.data.secretsKey)];
    const statements = key.Properties.KeyPolicy.Statement as { Principal: unknown }[];
    expect(statements).toHaveLength(1);
    expect(JSON.stringify(statements[0]!.Principal)).toContain(':root');
  });
});

describe('messaging', () => {
  test('every queue has its DLQ with the defined maxReceiveCount and visibility timeout, SQS-managed encryption', () => {
    // Plus one on-failure queue per stream worker (see 'stream workers').
    s.template.resourceCountIs('AWS::SQS::Queue', ids(QUEUES).length * 2 + STREAM_WORKERS.length);
    const resources = s.template.toJSON().Resources;
    for (const def of Object.values(QUEUES)) {
      expect(resources[queueId(def.id)].Properties).toMatchObject({
        VisibilityTimeout: def.visibilityTimeoutSeconds,
        SqsManagedSseEnabled: true,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId(def.id), 'Arn'] }, maxReceiveCount: def.maxReceiveCount },
      });
      expect(resources[dlqId(def.id)].Properties).toMatchObject({ MessageRetentionPeriod: 14 * 24 * 3600, SqsManagedSseEnabled: true });
    }
  });

  test('every topic subscription delivers SNS envelopes (not raw) to its queue', () => {
    const expected = Object.values(TOPICS).flatMap((t) => t.subscribedQueues.map((q) => ({ topic: t.id, queue: q })));
    s.template.resourceCountIs('AWS::SNS::Subscription', expected.length);
    for (const { topic, queue } of expected) {
      s.template.hasResourceProperties('AWS::SNS::Subscription', {
        Protocol: 'sqs',
        TopicArn: { Ref: topicId(topic) },
        Endpoint: { 'Fn::GetAtt': [queueId(queue), 'Arn'] },
        RawMessageDelivery: false,
      });
      // The queue lets that topic send to it.
      s.template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: queueId(queue) }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Action: 'sqs:SendMessage',
              Principal: { Service: 'sns.amazonaws.com' },
              Condition: { ArnEquals: { 'aws:SourceArn': { Ref: topicId(topic) } } },
            }),
          ]),
        },
      });
    }
  });

  test('schedule group and a scheduler role that may only send to the target queue', () => {
    s.template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: SCHEDULE_GROUP.name });
    const roleId = logicalId(s.stack, s.stack.scheduling.role);
    s.template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: {
        Statement: [Match.objectLike({ Action: 'sts:AssumeRole', Principal: { Service: 'scheduler.amazonaws.com' } })],
      },
    });
    const policies = Object.values(s.template.findResources('AWS::IAM::Policy')).filter((p) =>
      (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: roleId })),
    );
    expect(policies).toHaveLength(1);
    expect(policies[0]!.Properties.PolicyDocument.Statement[0].Resource).toHaveLength(2);
    expect(policies[0]!.Properties.PolicyDocument.Statement).toEqual([
      // The send queue (scheduled emails) and the automation-steps queue (waiting steps), nothing else.
      {
        Effect: 'Allow',
        Action: 'sqs:SendMessage',
        Resource: expect.arrayContaining([
          { 'Fn::GetAtt': [queueId('send'), 'Arn'] },
          { 'Fn::GetAtt': [queueId('automationSteps'), 'Arn'] },
        ]),
      },
    ]);
  });
});

describe('SES', () => {
  test('configuration set with an SNS event destination for the defined event types', () => {
    s.template.hasResourceProperties('AWS::SES::ConfigurationSet', { Name: CONFIGURATION_SET.name });
    s.template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: { Ref: logicalId(s.stack, s.stack.email.configurationSet) },
      EventDestination: {
        Name: CONFIGURATION_SET.eventDestinationName,
        Enabled: true,
        MatchingEventTypes: CONFIGURATION_SET.matchingEventTypes.map(toEmailSendingEvent),
        SnsDestination: { TopicARN: { Ref: topicId(CONFIGURATION_SET.topic) } },
      },
    });
    expect(CONFIGURATION_SET.matchingEventTypes.map(toEmailSendingEvent)).toContain('deliveryDelay');
  });

  test('a TLS-required twin (tls_mode enforced) with TlsPolicy REQUIRE publishes the same events to the same topic', () => {
    s.template.resourceCountIs('AWS::SES::ConfigurationSet', 2);
    s.template.hasResourceProperties('AWS::SES::ConfigurationSet', {
      Name: tlsRequiredConfigurationSet(CONFIGURATION_SET.name),
      DeliveryOptions: { TlsPolicy: 'REQUIRE' },
    });
    s.template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: { Ref: logicalId(s.stack, s.stack.email.tlsRequiredConfigurationSet) },
      EventDestination: {
        Name: CONFIGURATION_SET.eventDestinationName,
        Enabled: true,
        MatchingEventTypes: CONFIGURATION_SET.matchingEventTypes.map(toEmailSendingEvent),
        SnsDestination: { TopicARN: { Ref: topicId(CONFIGURATION_SET.topic) } },
      },
    });
  });

  test('the topic policy lets SES publish for this configuration set only', () => {
    s.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: topicId(CONFIGURATION_SET.topic) }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: 'sns:Publish',
            Principal: { Service: 'ses.amazonaws.com' },
            Condition: { StringEquals: Match.objectLike({ 'AWS:SourceAccount': { Ref: 'AWS::AccountId' } }) },
          }),
        ]),
      },
    });
  });
});

describe('functions', () => {
  const all = [
    ...API_GROUPS.map((g) => g.name),
    MTA_STS_API.name,
    ...WORKERS.map((w) => w.name),
    ...STREAM_WORKERS.map((w) => w.name),
    ...SCHEDULED_TASKS.map((t) => t.name),
  ];

  test('one Lambda per API group, worker, stream worker and scheduled task: nodejs22.x or newer, arm64, 512 MB unless the definition sets memoryMb, bundle handler', () => {
    s.template.resourceCountIs('AWS::Lambda::Function', all.length);
    expect(FUNCTION_MEMORY_MB).toBe(512);
    for (const name of all) {
      const props = functionProperties(s.template, s.stack, name);
      const version = Number(/^nodejs(\d+)\.x$/.exec(props.Runtime as string)?.[1]);
      expect(version).toBeGreaterThanOrEqual(22);
      const memoryMb =
        [...API_GROUPS, MTA_STS_API, ...WORKERS, ...STREAM_WORKERS, ...SCHEDULED_TASKS].find((d) => d.name === name)?.memoryMb ??
        FUNCTION_MEMORY_MB;
      expect({ name, props }).toMatchObject({ name, props: { Architectures: ['arm64'], MemorySize: memoryMb, Handler: 'index.handler' } });
    }
    for (const worker of [...WORKERS, ...STREAM_WORKERS, ...SCHEDULED_TASKS]) {
      expect(functionProperties(s.template, s.stack, worker.name).Timeout).toBe(worker.timeoutSeconds);
    }
  });

  test('memory as docs/deploy.md ("Memory sizing") recommends: 1024 MB on the CPU-bound paths people wait on and for inbound mail, 512 MB for the rest', () => {
    const memory = Object.fromEntries(all.map((name) => [name, functionProperties(s.template, s.stack, name).MemorySize]));
    const raised = {
      emails: 1024,
      compat: 1024,
      domains: 1024,
      migrations: 1024,
      'dashboard-emails': 1024,
      'dashboard-domains': 1024,
      'send-email': 1024,
      'inbound-email': 1024,
      'mta-sts': 256,
    };
    expect(memory).toEqual(Object.fromEntries(all.map((name) => [name, raised[name as keyof typeof raised] ?? 512])));
  });

  test('every function gets the variables of the resources it is granted, and no others', () => {
    const resourceVars = new Set([
      TABLE.envVar,
      ...Object.values(QUEUES).map((q) => q.envVar),
      ...Object.values(TOPICS).map((t) => t.envVar),
      ...Object.values(BUCKETS).map((b) => b.envVar),
      CONFIGURATION_SET.envVar,
      ENV.awsAccountId,
      SCHEDULE_GROUP.envVar,
      SCHEDULE_GROUP.roleEnvVar,
      ...SCHEDULE_GROUP.targetQueues.map((target) => target.arnEnvVar),
      SECRETS_KEY.envVar,
    ]);
    for (const def of [...API_GROUPS, ...WORKERS, ...STREAM_WORKERS, ...SCHEDULED_TASKS]) {
      const env = functionEnv(s.template, s.stack, def.name);
      expect(env).toMatchObject({ NODE_OPTIONS: '--enable-source-maps', SANDBOX_DOMAIN: SETTINGS.SANDBOX_DOMAIN });
      const expected = expectedEnvVars(def.grants);
      expect(
        Object.keys(env)
          .filter((k) => resourceVars.has(k))
          .sort(),
      ).toEqual([...new Set(expected)].sort());
    }
  });

  test('environment values point at the right resources', () => {
    const env = functionEnv(s.template, s.stack, 'emails');
    expect(env[TABLE.envVar]).toEqual({ Ref: logicalId(s.stack, s.stack.data.table) });
    expect(env[QUEUES.send.envVar]).toEqual({ Ref: queueId('send') });
    expect(env[BUCKETS.mail.envVar]).toEqual({ Ref: logicalId(s.stack, s.stack.data.buckets.mail) });
    expect(functionEnv(s.template, s.stack, 'send-email')[CONFIGURATION_SET.envVar]).toEqual({
      Ref: logicalId(s.stack, s.stack.email.configurationSet),
    });
    const keyArn = { 'Fn::GetAtt': [logicalId(s.stack, s.stack.data.secretsKey), 'Arn'] };
    expect(functionEnv(s.template, s.stack, 'domains')[SECRETS_KEY.envVar]).toEqual(keyArn);
    expect(functionEnv(s.template, s.stack, 'send-email')[SECRETS_KEY.envVar]).toEqual(keyArn);
  });
});

describe('HTTP API', () => {
  test('every route of every group exists and targets its group Lambda', () => {
    const resources = s.template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
    const mainApi = logicalId(s.stack, s.stack.api.httpApi);
    const routes = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.ApiId.Ref === mainApi);
    expect(routes).toHaveLength(API_GROUPS.flatMap((g) => apiRoutes(g)).length);
    for (const group of API_GROUPS) {
      for (const routeKey of apiRoutes(group)) {
        const route = routes.find((r) => r.Properties.RouteKey === routeKey);
        expect(route).toBeDefined();
        const integrationId = (route!.Properties.Target['Fn::Join'][1] as unknown[])
          .map((part) => (typeof part === 'object' && part !== null && 'Ref' in part ? (part as { Ref: string }).Ref : ''))
          .join('');
        expect(resources[integrationId]?.Properties).toMatchObject({
          IntegrationType: 'AWS_PROXY',
          IntegrationUri: { 'Fn::GetAtt': [fnId(group.name), 'Arn'] },
        });
      }
    }
  });

  test('API Gateway may invoke each group Lambda', () => {
    for (const group of API_GROUPS) {
      s.template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        Principal: 'apigateway.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [fnId(group.name), 'Arn'] },
      });
    }
  });
});

describe('the MTA-STS API (hosted policies: docs/deliverability.md)', () => {
  test('an HTTP API of its own, without the execute-api endpoint, its one route to the mta-sts function, access-logged', () => {
    const api = logicalId(s.stack, s.stack.api.mtaStsApi);
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: true, ProtocolType: 'HTTP' });
    const resources = s.template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
    const routes = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.ApiId.Ref === api);
    expect(routes.map((route) => route.Properties.RouteKey)).toEqual(MTA_STS_API.routes);
    const integrationId = (routes[0]!.Properties.Target['Fn::Join'][1] as unknown[])
      .map((part) => (typeof part === 'object' && part !== null && 'Ref' in part ? (part as { Ref: string }).Ref : ''))
      .join('');
    expect(resources[integrationId]?.Properties).toMatchObject({
      ApiId: { Ref: api },
      IntegrationType: 'AWS_PROXY',
      IntegrationUri: { 'Fn::GetAtt': [fnId(MTA_STS_API.name), 'Arn'] },
    });
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: { Ref: api },
      StageName: '$default',
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
  });

  test('the domain-health task, which provisions policy hosts, knows the API to map them to (MTA_STS_API_ID); the API functions do not', () => {
    const api = logicalId(s.stack, s.stack.api.mtaStsApi);
    expect(functionEnv(s.template, s.stack, 'domain-health')[ENV.mtaStsApiId]).toEqual({ Ref: api });
    for (const name of ['domains', 'dashboard-domains', MTA_STS_API.name])
      expect(functionEnv(s.template, s.stack, name)[ENV.mtaStsApiId]).toBeUndefined();
  });

  test('the mta-sts function reads the table only', () => {
    expect(MTA_STS_API.grants).toEqual([{ resource: { kind: 'table' }, access: 'read' }]);
    expect(functionEnv(s.template, s.stack, MTA_STS_API.name)[TABLE.envVar]).toBeDefined();
  });
});

describe('workers', () => {
  test('each worker is fed by its queue with its batch size, its concurrency cap and partial batch failures', () => {
    s.template.resourceCountIs('AWS::Lambda::EventSourceMapping', WORKERS.length + STREAM_WORKERS.length);
    for (const worker of WORKERS) {
      s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: fnId(worker.name) },
        EventSourceArn: { 'Fn::GetAtt': [queueId(worker.queue), 'Arn'] },
        BatchSize: worker.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: worker.maxConcurrency ? { MaximumConcurrency: worker.maxConcurrency } : Match.absent(),
      });
    }
  });

  test('the inbound-email worker: 1024 MB, fed one message at a time by the inbound queue, which has its DLQ', () => {
    // Literal values: a 40 MB message is parsed in memory, and one per invocation.
    expect(functionProperties(s.template, s.stack, 'inbound-email')).toMatchObject({ MemorySize: 1024, Timeout: 120 });
    const mappings = Object.values(s.template.findResources('AWS::Lambda::EventSourceMapping')).filter(
      (m) => JSON.stringify(m.Properties.FunctionName) === JSON.stringify({ Ref: fnId('inbound-email') }),
    );
    expect(mappings).toHaveLength(1);
    expect(mappings[0]!.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [queueId('inbound'), 'Arn'] },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 20 },
    });
    const resources = s.template.toJSON().Resources;
    expect(resources[queueId('inbound')]).toMatchObject({
      Type: 'AWS::SQS::Queue',
      Properties: {
        // Above the worker's 120 s timeout, so a message is never seen twice while still in work.
        VisibilityTimeout: 180,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId('inbound'), 'Arn'] }, maxReceiveCount: 5 },
      },
    });
    expect(resources[dlqId('inbound')]).toMatchObject({ Type: 'AWS::SQS::Queue', Properties: { MessageRetentionPeriod: 14 * 24 * 3600 } });
    expect(functionEnv(s.template, s.stack, 'inbound-email')[QUEUES.inbound.envVar]).toEqual({ Ref: queueId('inbound') });
  });
});

describe('stream workers', () => {
  const onFailureId = (name: string): string => logicalId(s.stack, s.stack.workers.onFailureQueues[name]!);

  test('each is fed by the table stream with the definition settings, filters and an on-failure queue', () => {
    expect(STREAM_WORKERS.map((w) => w.name)).toContain('outbox-relay');
    for (const worker of STREAM_WORKERS) {
      s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: fnId(worker.name) },
        EventSourceArn: { 'Fn::GetAtt': [logicalId(s.stack, s.stack.data.table), 'StreamArn'] },
        StartingPosition: worker.startingPosition,
        BatchSize: worker.batchSize,
        MaximumBatchingWindowInSeconds: worker.maxBatchingWindowMs / 1000,
        MaximumRetryAttempts: worker.retryAttempts,
        BisectBatchOnFunctionError: worker.bisectBatchOnFunctionError,
        FunctionResponseTypes: worker.reportBatchItemFailures ? ['ReportBatchItemFailures'] : Match.absent(),
        FilterCriteria: { Filters: worker.filters.map((pattern) => ({ Pattern: JSON.stringify(pattern) })) },
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [onFailureId(worker.name), 'Arn'] } } },
      });
      expect(s.template.toJSON().Resources[onFailureId(worker.name)].Properties).toMatchObject({
        MessageRetentionPeriod: 14 * 24 * 3600,
        SqsManagedSseEnabled: true,
      });
    }
  });

  test('the outbox relay takes new email items only, in batches of 100, retries 10 times, bisects and reports partial failures', () => {
    const relay = STREAM_WORKERS.find((w) => w.name === 'outbox-relay')!;
    expect(relay).toMatchObject({
      startingPosition: 'TRIM_HORIZON',
      batchSize: 100,
      retryAttempts: 10,
      bisectBatchOnFunctionError: true,
      reportBatchItemFailures: true,
    });
    expect(relay.filters).toEqual([{ eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['email'] } } } }]);
  });
});

test('outputs: API URL, table name, queue URLs, secrets key ARN', () => {
  const outputs = s.template.toJSON().Outputs as Record<string, { Value: unknown }>;
  expect(outputs.ApiUrl?.Value).toEqual({ 'Fn::GetAtt': [logicalId(s.stack, s.stack.api.httpApi), 'ApiEndpoint'] });
  expect(outputs.TableName?.Value).toEqual({ Ref: logicalId(s.stack, s.stack.data.table) });
  const queueUrls = Object.values(outputs).map((o) => o.Value);
  for (const id of ids(QUEUES) as QueueId[]) expect(queueUrls).toContainEqual({ Ref: queueId(id) });
  for (const worker of STREAM_WORKERS)
    expect(queueUrls).toContainEqual({ Ref: logicalId(s.stack, s.stack.workers.onFailureQueues[worker.name]!) });
  expect(outputs.SecretsKeyArn?.Value).toEqual({ 'Fn::GetAtt': [logicalId(s.stack, s.stack.data.secretsKey), 'Arn'] });
});

describe('reliability', () => {
  test('each scheduled task is invoked by an EventBridge rule at its rate, without retries', () => {
    for (const task of SCHEDULED_TASKS) {
      s.template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: `rate(${task.everyMinutes} minute${task.everyMinutes === 1 ? '' : 's'})`,
        State: 'ENABLED',
        Targets: [
          {
            Arn: { 'Fn::GetAtt': [logicalId(s.stack, s.stack.tasks.functions[task.name]!), 'Arn'] },
            RetryPolicy: { MaximumRetryAttempts: 0 },
          },
        ],
      });
    }
  });

  test('alarms: every queue on its oldest message and its DLQ, the reconciler on overdue work, re-drives and silence', () => {
    for (const queueId of ids(QUEUES) as QueueId[]) {
      s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'ApproximateAgeOfOldestMessage',
        Namespace: 'AWS/SQS',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId(s.stack, s.stack.messaging.queues[queueId]), 'QueueName'] } }],
      });
      s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [
          { Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId(s.stack, s.stack.messaging.deadLetterQueues[queueId]), 'QueueName'] } },
        ],
        Threshold: 0,
      });
    }
    for (const metric of ['OldestDueAgeSeconds', 'Redriven', 'ReconcileErrors']) {
      s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'Mailservice',
        MetricName: metric,
        Dimensions: [{ Name: 'Task', Value: 'reconciler' }],
      });
    }
  });
});

describe('context tableIndexes (an upgrade one index per deploy: CloudFormation adds one per stack update)', () => {
  test('declares only the first N of the indexes, in order', () => {
    const upgrade = synth({ context: { tableIndexes: TABLE.globalSecondaryIndexes.length - 1 } });
    try {
      const [table] = Object.values(upgrade.template.findResources('AWS::DynamoDB::Table')) as {
        Properties: { GlobalSecondaryIndexes: { IndexName: string }[] };
      }[];
      expect(table!.Properties.GlobalSecondaryIndexes.map((gsi) => gsi.IndexName)).toEqual(
        TABLE.globalSecondaryIndexes.slice(0, -1).map((gsi) => gsi.indexName),
      );
    } finally {
      upgrade.cleanup();
    }
  });

  test('refuses a count that is not one of the indexes, naming them', () => {
    for (const bad of [0, TABLE.globalSecondaryIndexes.length + 1, 'four', 2.5]) {
      expect(() => declaredIndexes(bad)).toThrow(
        /tableIndexes must be a whole number from 1 to \d+ \(the first N of the table's indexes: GSI1, /,
      );
    }
    expect(declaredIndexes(undefined)).toEqual(TABLE.globalSecondaryIndexes);
  });
});

describe('context workerConcurrency (a worker sized for a higher SES quota)', () => {
  test("sets the named workers' event source concurrency, leaving the others at their definition's", () => {
    const sized = synth({ context: { workerConcurrency: 'send-email:100, webhook-delivery:400' } });
    try {
      const mappings = Object.values(sized.template.findResources('AWS::Lambda::EventSourceMapping')) as {
        Properties: { FunctionName: unknown; ScalingConfig?: { MaximumConcurrency: number } };
      }[];
      const of = (name: string) =>
        mappings.find(
          (m) =>
            JSON.stringify(m.Properties.FunctionName) ===
            JSON.stringify({ Ref: logicalId(sized.stack, sized.stack.workers.functions[name]!) }),
        )!.Properties.ScalingConfig;
      expect(of('send-email')).toEqual({ MaximumConcurrency: 100 });
      expect(of('webhook-delivery')).toEqual({ MaximumConcurrency: 400 });
      expect(of('inbound-email')).toEqual({
        MaximumConcurrency: WORKERS.find((worker) => worker.name === 'inbound-email')!.maxConcurrency,
      });
    } finally {
      sized.cleanup();
    }
  });

  test('refuses a worker it does not know and a count Lambda does not take, naming them', () => {
    expect(workerConcurrencyOverrides(undefined)).toEqual({});
    expect(() => workerConcurrencyOverrides('sender:10')).toThrow(/'sender' is not an SQS worker \(one of send-email, /);
    for (const bad of ['send-email:1', 'send-email:1001', 'send-email:many', 'send-email'])
      expect(() => workerConcurrencyOverrides(bad)).toThrow(/must be a whole number from 2 to 1000/);
  });
});

/** The MaximumConcurrency of a worker's SQS event source in a synthesised stack. */
function eventSourceConcurrency(sized: Synthesised, name: string): number | undefined {
  const mappings = Object.values(sized.template.findResources('AWS::Lambda::EventSourceMapping')) as {
    Properties: { FunctionName: unknown; ScalingConfig?: { MaximumConcurrency: number } };
  }[];
  const ref = JSON.stringify({ Ref: logicalId(sized.stack, sized.stack.workers.functions[name]!) });
  return mappings.find((m) => JSON.stringify(m.Properties.FunctionName) === ref)?.Properties.ScalingConfig?.MaximumConcurrency;
}

describe('context sesMaxSendRate (the send worker sized from the SES account rate)', () => {
  const sendDefault = WORKERS.find((worker) => worker.name === 'send-email')!.maxConcurrency!;

  test('5,000 recipients a second: 125 send invocations (50 a second each, a quarter to spare); workerConcurrency naming send-email wins', () => {
    const sized = synth({ context: { sesMaxSendRate: 5000 } });
    const named = synth({ context: { sesMaxSendRate: 5000, workerConcurrency: 'send-email:300' } });
    try {
      expect(eventSourceConcurrency(sized, 'send-email')).toBe(125);
      expect(eventSourceConcurrency(sized, 'webhook-delivery')).toBe(WORKERS.find((w) => w.name === 'webhook-delivery')!.maxConcurrency);
      expect(eventSourceConcurrency(named, 'send-email')).toBe(300);
    } finally {
      sized.cleanup();
      named.cleanup();
    }
  });

  test("never below the definition's nor above Lambda's 1,000; refuses a rate that is not SES's", () => {
    expect(sendConcurrencyForRate(14, sendDefault)).toBe(sendDefault);
    expect(sendConcurrencyForRate(1000, sendDefault)).toBe(25);
    expect(sendConcurrencyForRate(90_000, sendDefault)).toBe(1000);
    expect(sesRateFrom(undefined)).toBeUndefined();
    expect(sesRateFrom('14')).toBe(14);
    for (const bad of [0, -5, 'fast', 100_001])
      expect(() => sesRateFrom(bad)).toThrow(/sesMaxSendRate must be SES's MaxSendRate for the account/);
  });
});

describe('contexts tableWarmWrites and tableWarmReads (a pre-warmed table)', () => {
  type TableProps = {
    WarmThroughput?: Record<string, number>;
    GlobalSecondaryIndexes: { IndexName: string; WarmThroughput?: Record<string, number> }[];
  };
  const tableOf = (synthesised: Synthesised) =>
    (Object.values(synthesised.template.findResources('AWS::DynamoDB::Table'))[0] as { Properties: TableProps }).Properties;

  test('sets the warm throughput of the table and of every index; unset, none is declared', () => {
    const warm = synth({ context: { tableWarmWrites: 20000, tableWarmReads: 40000 } });
    try {
      const table = tableOf(warm);
      const wanted = { WriteUnitsPerSecond: 20000, ReadUnitsPerSecond: 40000 };
      expect(table.WarmThroughput).toEqual(wanted);
      expect(table.GlobalSecondaryIndexes.map((gsi) => [gsi.IndexName, gsi.WarmThroughput])).toEqual(
        TABLE.globalSecondaryIndexes.map((gsi) => [gsi.indexName, wanted]),
      );
    } finally {
      warm.cleanup();
    }
    const plain = tableOf(s);
    expect(plain.WarmThroughput).toBeUndefined();
    expect(plain.GlobalSecondaryIndexes.every((gsi) => gsi.WarmThroughput === undefined)).toBe(true);
  });

  test("takes writes alone, and refuses a value at or below a new on-demand table's (4,000 writes, 12,000 reads)", () => {
    expect(tableWarmThroughput(undefined, undefined)).toBeUndefined();
    expect(tableWarmThroughput('8000', undefined)).toEqual({ writeUnitsPerSecond: 8000 });
    for (const bad of [4000, 'lots', 4500.5])
      expect(() => tableWarmThroughput(bad, undefined)).toThrow(/tableWarmWrites must be a whole number of units a second above 4,000/);
    expect(() => tableWarmThroughput(undefined, 12000)).toThrow(/tableWarmReads must be a whole number of units a second above 12,000/);
  });
});

describe('context tableCapacity (provisioned capacity with auto scaling instead of on demand)', () => {
  type Scalable = { Properties: { ResourceId: unknown; ScalableDimension: string; MinCapacity: number; MaxCapacity: number } };
  type Policy = { Properties: { ScalingTargetId: unknown; TargetTrackingScalingPolicyConfiguration: Record<string, any> } };

  test('provisions the table and every index at the floor, each scaled on utilization at 70% between min and max', () => {
    const sized = synth({ context: { tableCapacity: 'provisioned', tableWriteCapacity: '10:2000', tableReadCapacity: '20:3000' } });
    try {
      const table = Object.values(sized.template.findResources('AWS::DynamoDB::Table'))[0] as {
        Properties: { BillingMode?: string; ProvisionedThroughput: unknown; GlobalSecondaryIndexes: { ProvisionedThroughput: unknown }[] };
      };
      expect(table.Properties.BillingMode).not.toBe('PAY_PER_REQUEST');
      expect(table.Properties.ProvisionedThroughput).toEqual({ ReadCapacityUnits: 20, WriteCapacityUnits: 10 });
      for (const gsi of table.Properties.GlobalSecondaryIndexes)
        expect(gsi.ProvisionedThroughput).toEqual({ ReadCapacityUnits: 20, WriteCapacityUnits: 10 });

      const targets = Object.values(sized.template.findResources('AWS::ApplicationAutoScaling::ScalableTarget')) as Scalable[];
      const dynamo = targets.filter((target) => target.Properties.ScalableDimension.startsWith('dynamodb:'));
      // Reads and writes of the table and of each index.
      expect(dynamo).toHaveLength(2 * (1 + TABLE.globalSecondaryIndexes.length));
      const ranges = dynamo.map((target) => [
        target.Properties.ScalableDimension,
        target.Properties.MinCapacity,
        target.Properties.MaxCapacity,
      ]);
      expect(ranges.filter(([dimension]) => dimension === 'dynamodb:table:WriteCapacityUnits')).toEqual([
        ['dynamodb:table:WriteCapacityUnits', 10, 2000],
      ]);
      expect(ranges.filter(([dimension]) => dimension === 'dynamodb:index:ReadCapacityUnits')).toHaveLength(
        TABLE.globalSecondaryIndexes.length,
      );
      expect(
        ranges.every(([dimension, min, max]) =>
          String(dimension).endsWith('WriteCapacityUnits') ? min === 10 && max === 2000 : min === 20 && max === 3000,
        ),
      ).toBe(true);

      const policies = Object.values(sized.template.findResources('AWS::ApplicationAutoScaling::ScalingPolicy')) as Policy[];
      const utilization = policies
        .map((policy) => policy.Properties.TargetTrackingScalingPolicyConfiguration)
        .filter((config) => String(config.PredefinedMetricSpecification?.PredefinedMetricType).startsWith('DynamoDB'));
      expect(utilization).toHaveLength(dynamo.length);
      expect(utilization.every((config) => config.TargetValue === TARGET_UTILIZATION_PERCENT)).toBe(true);
    } finally {
      sized.cleanup();
    }
    // Unset: on demand, nothing scaled.
    const plain = Object.values(s.template.findResources('AWS::DynamoDB::Table'))[0] as { Properties: { BillingMode: string } };
    expect(plain.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(Object.keys(s.template.findResources('AWS::ApplicationAutoScaling::ScalableTarget'))).toEqual([]);
  });

  test('takes the defaults, and refuses a mode it does not know, a bad range, or ranges without the provisioned mode', () => {
    expect(tableCapacity(undefined, undefined, undefined)).toEqual({ mode: 'on-demand' });
    expect(tableCapacity('provisioned', undefined, undefined)).toEqual({
      mode: 'provisioned',
      writes: { min: 5, max: 4000 },
      reads: { min: 5, max: 12000 },
    });
    expect(() => tableCapacity('reserved', undefined, undefined)).toThrow(/tableCapacity must be on-demand or provisioned/);
    for (const bad of ['0:10', '10:5', 'lots', '10', '5:40001'])
      expect(() => tableCapacity('provisioned', bad, undefined)).toThrow(/tableWriteCapacity must be min:max/);
    expect(() => tableCapacity(undefined, '5:100', undefined)).toThrow(/add -c tableCapacity=provisioned/);
  });
});

describe('LOG_LEVEL of the functions and the relay task', () => {
  test("every function and the relay task run at the setting's default, warn, unless -c logLevel says otherwise", () => {
    const levels = (synthesised: Synthesised) => {
      const fns = Object.values(synthesised.template.findResources('AWS::Lambda::Function')) as {
        Properties: { Environment?: { Variables?: Record<string, unknown> } };
      }[];
      const task = Object.values(synthesised.template.findResources('AWS::ECS::TaskDefinition'))[0] as {
        Properties: { ContainerDefinitions: { Environment: { Name: string; Value: unknown }[] }[] };
      };
      return {
        functions: new Set(fns.map((fn) => fn.Properties.Environment?.Variables?.LOG_LEVEL)),
        relay: task.Properties.ContainerDefinitions[0]!.Environment.find((entry) => entry.Name === 'LOG_LEVEL')?.Value,
      };
    };
    expect(SETTINGS.LOG_LEVEL).toBe('warn');
    expect(levels(s)).toEqual({ functions: new Set(['warn']), relay: 'warn' });
    const verbose = synth({ context: { logLevel: 'info' } });
    try {
      expect(levels(verbose)).toEqual({ functions: new Set(['info']), relay: 'info' });
    } finally {
      verbose.cleanup();
    }
  });
});
