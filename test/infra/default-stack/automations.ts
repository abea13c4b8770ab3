/**
 * The automation run engine's resources (issue 14): the automation-steps queue and worker, the
 * automation-outbox stream worker, the scheduler's second target queue, the reconciler's re-drive and
 * POST /events in the automations group. Each pinned in the definitions and in the synthesised template.
 */
import { apiRoutes } from '#infra/api-routes';
import { API_GROUPS, QUEUES, SCHEDULE_GROUP, SCHEDULED_TASKS, STREAM_WORKERS, WORKERS, type QueueId } from '#infra/definitions';
import { ENV } from '#shared/config/config';
import {
  actionsOf,
  functionActions,
  functionEnv,
  functionOf,
  functionStatements,
  logicalId,
  resourcesOf,
  roleStatements,
  streamRelayTableActions,
  type Statement,
  type Synthesised,
  defaultStack,
} from '../helpers';

let s: Synthesised;
beforeAll(() => {
  s = defaultStack();
});
afterAll(() => s?.cleanup());

const queueArn = (id: QueueId): unknown => ({ 'Fn::GetAtt': [logicalId(s.stack, s.stack.messaging.queues[id]), 'Arn'] });
const onFailureArn = (name: string): unknown => ({ 'Fn::GetAtt': [logicalId(s.stack, s.stack.workers.onFailureQueues[name]!), 'Arn'] });
const sorted = (values: unknown[]): unknown[] => [...values].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
/** Resources of every sqs:SendMessage statement of a function's role. */
const sendsOf = (name: string): unknown[] =>
  functionStatements(s.template, s.stack, name)
    .filter((st) => actionsOf(st).includes('sqs:SendMessage'))
    .flatMap(resourcesOf);

describe('the automation-steps queue', () => {
  test('is defined with its DLQ, a 60 s visibility timeout, 5 receives and AUTOMATION_STEPS_QUEUE_URL', () => {
    expect(QUEUES.automationSteps).toEqual({
      id: 'automationSteps',
      name: 'mailservice-automation-steps',
      visibilityTimeoutSeconds: 60,
      maxReceiveCount: 5,
      dlqName: 'mailservice-automation-steps-dlq',
      envVar: 'AUTOMATION_STEPS_QUEUE_URL',
    });
    expect(ENV.automationStepsQueueUrl).toBe('AUTOMATION_STEPS_QUEUE_URL');
    expect(ENV.automationStepsQueueArn).toBe('AUTOMATION_STEPS_QUEUE_ARN');
  });

  test('is synthesised with its redrive to its own DLQ', () => {
    const resources = s.template.toJSON().Resources;
    const dlqId = logicalId(s.stack, s.stack.messaging.deadLetterQueues.automationSteps);
    expect(resources[logicalId(s.stack, s.stack.messaging.queues.automationSteps)]).toMatchObject({
      Type: 'AWS::SQS::Queue',
      Properties: { VisibilityTimeout: 60, RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: 5 } },
    });
  });
});

describe('the scheduler', () => {
  test('delivers into the send queue (SCHEDULER_TARGET_QUEUE_ARN) and the automation-steps queue (AUTOMATION_STEPS_QUEUE_ARN) only', () => {
    expect(SCHEDULE_GROUP.targetQueues).toEqual([
      { queue: 'send', arnEnvVar: 'SCHEDULER_TARGET_QUEUE_ARN' },
      { queue: 'automationSteps', arnEnvVar: 'AUTOMATION_STEPS_QUEUE_ARN' },
    ]);
  });

  test('its role may only sqs:SendMessage, to exactly these two queues', () => {
    const statements: Statement[] = roleStatements(s.template, logicalId(s.stack, s.stack.scheduling.role));
    expect(statements.flatMap(actionsOf)).toEqual(['sqs:SendMessage']);
    expect(sorted(statements.flatMap(resourcesOf))).toEqual(sorted([queueArn('send'), queueArn('automationSteps')]));
  });

  test('every function granted the scheduler gets both target ARNs, each pointing at its queue', () => {
    const schedulers = [...API_GROUPS, ...WORKERS, ...STREAM_WORKERS, ...SCHEDULED_TASKS].filter((d) =>
      d.grants.some((g) => g.resource.kind === 'scheduler'),
    );
    expect(schedulers.map((d) => d.name)).toEqual(expect.arrayContaining(['emails', 'automation-steps']));
    for (const definition of schedulers) {
      const env = functionEnv(s.template, s.stack, definition.name);
      expect({ name: definition.name, send: env.SCHEDULER_TARGET_QUEUE_ARN, steps: env.AUTOMATION_STEPS_QUEUE_ARN }).toEqual({
        name: definition.name,
        send: queueArn('send'),
        steps: queueArn('automationSteps'),
      });
    }
  });
});

describe('the automation-steps worker', () => {
  const worker = () => WORKERS.find((w) => w.name === 'automation-steps')!;

  test('is fed by the automation-steps queue: batches of 10, at most 10 at once, 30 s', () => {
    expect(worker()).toMatchObject({
      entry: 'functions/workers/automation-steps/handler.ts',
      queue: 'automationSteps',
      batchSize: 10,
      maxConcurrency: 10,
      timeoutSeconds: 30,
    });
    // Below the queue's visibility timeout, so a step in work is not redelivered.
    expect(worker().timeoutSeconds).toBeLessThan(QUEUES.automationSteps.visibilityTimeoutSeconds);
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(s.stack, functionOf(s.stack, 'automation-steps')) },
      EventSourceArn: queueArn('automationSteps'),
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 10 },
    });
  });

  test('grants: the table, its queue, the mail bucket, the scheduler and the webhook events queue; never the send queue', () => {
    expect(worker().grants).toEqual([
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'queue', id: 'automationSteps' }, access: 'consume' },
      { resource: { kind: 'bucket', id: 'mail' }, access: 'readWrite' },
      { resource: { kind: 'scheduler' }, access: 'schedule' },
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
    ]);
    // Emails reach the send queue through the outbox relay (the table's stream), never from here.
    expect(sendsOf('automation-steps')).toEqual([queueArn('webhookEvents')]);
    const actions = functionActions(s.template, s.stack, 'automation-steps');
    for (const action of [
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      's3:PutObject',
      'scheduler:CreateSchedule',
      'iam:PassRole',
      'sqs:ReceiveMessage',
    ])
      expect(actions).toContain(action);
    for (const prefix of ['ses:', 'sns:', 'kms:']) expect(actions.filter((a) => a.startsWith(prefix))).toEqual([]);
    const receives = functionStatements(s.template, s.stack, 'automation-steps')
      .filter((st) => actionsOf(st).includes('sqs:ReceiveMessage'))
      .flatMap(resourcesOf);
    expect(receives).toEqual(receives.map(() => queueArn('automationSteps')));
    expect(functionEnv(s.template, s.stack, 'automation-steps')[ENV.automationStepsQueueUrl]).toEqual({
      Ref: logicalId(s.stack, s.stack.messaging.queues.automationSteps),
    });
  });
});

describe('the automation-outbox stream worker', () => {
  const worker = () => STREAM_WORKERS.find((w) => w.name === 'automation-outbox')!;

  test('reads run inserts and modifies from the trim horizon, 100 at a time, with retries, bisection and partial failures', () => {
    expect(worker()).toEqual({
      name: 'automation-outbox',
      entry: 'functions/workers/automation-outbox/handler.ts',
      // Its two queues, and the table for one read: whether the account has a webhook endpoint (its counter).
      capabilities: ['platform', 'messaging'],
      startingPosition: 'TRIM_HORIZON',
      batchSize: 100,
      maxBatchingWindowMs: 0,
      filters: [{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: ['run'] } } } }],
      retryAttempts: 10,
      bisectBatchOnFunctionError: true,
      reportBatchItemFailures: true,
      onFailure: { queueName: 'mailservice-automation-outbox-failures', envVar: 'AUTOMATION_OUTBOX_FAILURES_QUEUE_URL' },
      timeoutSeconds: 30,
      grants: [
        { resource: { kind: 'queue', id: 'automationSteps' }, access: 'send' },
        { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
        { resource: { kind: 'table' }, access: 'getItems' },
      ],
    });
    expect(ENV.automationOutboxFailuresQueueUrl).toBe('AUTOMATION_OUTBOX_FAILURES_QUEUE_URL');
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(s.stack, functionOf(s.stack, 'automation-outbox')) },
      FilterCriteria: {
        Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: ['run'] } } } }) }],
      },
    });
  });

  test("may read the stream, get the table's items by key and send to the automation-steps, webhook events and its on-failure queues, nothing else", () => {
    expect(sorted(sendsOf('automation-outbox'))).toEqual(
      sorted([queueArn('automationSteps'), queueArn('webhookEvents'), onFailureArn('automation-outbox')]),
    );
    const actions = functionActions(s.template, s.stack, 'automation-outbox');
    expect(actions.filter((a) => a.startsWith('dynamodb:')).sort()).toEqual(streamRelayTableActions());
    for (const prefix of ['s3:', 'ses:', 'sns:', 'kms:', 'scheduler:', 'iam:'])
      expect(actions.filter((a) => a.startsWith(prefix))).toEqual([]);
  });
});

test('the reconciler may re-drive automation steps', () => {
  const reconciler = SCHEDULED_TASKS.find((t) => t.name === 'reconciler')!;
  expect(reconciler.grants).toContainEqual({ resource: { kind: 'queue', id: 'automationSteps' }, access: 'send' });
  expect(sendsOf('reconciler')).toContainEqual(queueArn('automationSteps'));
  expect(functionEnv(s.template, s.stack, 'reconciler')[ENV.automationStepsQueueUrl]).toBeDefined();
});

test('only the automation outbox and the reconciler send to the automation-steps queue (delays and wait timeouts go through the scheduler role)', () => {
  const steps = JSON.stringify(queueArn('automationSteps'));
  const senders = [...API_GROUPS, ...WORKERS, ...STREAM_WORKERS, ...SCHEDULED_TASKS]
    .filter((d) => sendsOf(d.name).some((r) => JSON.stringify(r) === steps))
    .map((d) => d.name)
    .sort();
  expect(senders).toEqual(['automation-outbox', 'reconciler']);
});

describe('the automations API group', () => {
  test('serves the automations, their runs and POST /events, with the table only', () => {
    expect(API_GROUPS.find((g) => g.name === 'automations')).toEqual({
      name: 'automations',
      entry: 'functions/api/automations/handler.ts',
      capabilities: ['platform', 'access', 'tenants', 'templates', 'automations'],
      grants: [{ resource: { kind: 'table' }, access: 'readWrite' }],
    });
    expect(apiRoutes(API_GROUPS.find((g) => g.name === 'automations')!)).toEqual([
      'ANY /events',
      'ANY /events/{proxy+}',
      'ANY /automations',
      'ANY /automations/{proxy+}',
    ]);
    const owners = API_GROUPS.filter((g) => apiRoutes(g).some((r) => r.endsWith(' /events') || r.startsWith('ANY /events/')));
    expect(owners.map((g) => g.name)).toEqual(['automations']);
  });

  test('ANY /events goes to the automations Lambda', () => {
    const routes = Object.values(s.template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: 'ANY /events' } })) as {
      Properties: { Target: { 'Fn::Join': [string, unknown[]] } };
    }[];
    expect(routes).toHaveLength(1);
    const integrationId = (routes[0]!.Properties.Target['Fn::Join'][1][1] as { Ref: string }).Ref;
    const integration = s.template.toJSON().Resources[integrationId];
    expect(integration.Properties.IntegrationUri).toEqual({
      'Fn::GetAtt': [logicalId(s.stack, functionOf(s.stack, 'automations')), 'Arn'],
    });
    for (const prefix of ['sqs:', 's3:', 'ses:', 'sns:', 'kms:', 'scheduler:', 'iam:']) {
      expect(functionActions(s.template, s.stack, 'automations').filter((a) => a.startsWith(prefix))).toEqual([]);
    }
  });
});
