/**
 * The stack is generated from infra/definitions: a new API group, worker and queue added there
 * appear in the template (Lambda, routes, event source, grants, environment) with no other infra
 * change; inconsistent definitions fail the synthesis with a clear message.
 */
import { apiRoutes } from '#infra/api-routes';
import { parseRoute } from '#infra/constructs/api';
import { toEmailSendingEvent } from '#infra/constructs/email';
import { SCHEDULER_ACTIONS } from '#infra/constructs/grants';
import { FUNCTION_MEMORY_MB } from '#infra/constructs/service-function';
import {
  API_GROUPS,
  QUEUES,
  SCHEDULE_GROUP,
  STREAM_WORKERS,
  SECRETS_KEY,
  TABLE,
  TOPICS,
  WORKERS,
  type ApiGroupDefinition,
  type QueueDefinition,
  type QueueId,
  type WorkerDefinition,
} from '#infra/definitions';
import { functionEntries } from '#infra/functions';
import {
  actionsOf,
  createStack,
  functionActions,
  functionEnv,
  functionOf,
  functionProperties,
  functionStatements,
  logicalId,
  resourcesOf,
  synth,
  type Synthesised,
} from './helpers';

const NEW_QUEUE = 'webhooks' as QueueId;
const newQueue: QueueDefinition = {
  id: NEW_QUEUE,
  name: 'mailservice-webhooks',
  visibilityTimeoutSeconds: 90,
  maxReceiveCount: 3,
  dlqName: 'mailservice-webhooks-dlq',
  envVar: 'WEBHOOKS_QUEUE_URL',
};
const newGroup: ApiGroupDefinition = {
  // A group that does not exist yet (templates, automations, migrations and exports, once the example here, are real groups or routes now).
  name: 'reports',
  entry: 'functions/api/reports/handler.ts',
  // Its operations' routes come from their declarations (infra/api-routes.ts); pages are declared here.
  pages: ['GET /reports', 'POST /reports', 'ANY /reports/{proxy+}'],
  capabilities: ['platform', 'access', 'schedules', 'secrets'],
  grants: [
    { resource: { kind: 'table' }, access: 'read' },
    { resource: { kind: 'scheduler' }, access: 'schedule' },
    { resource: { kind: 'topic', id: 'sesEvents' }, access: 'publish' },
    { resource: { kind: 'secretsKey' }, access: 'encrypt' },
  ],
};
const newWorker: WorkerDefinition = {
  name: 'webhook-deliveries',
  entry: 'functions/workers/webhook-deliveries/handler.ts',
  capabilities: ['platform', 'webhooks'],
  queue: NEW_QUEUE,
  batchSize: 5,
  timeoutSeconds: 20,
  memoryMb: 1024,
  grants: [
    { resource: { kind: 'table' }, access: 'readWrite' },
    { resource: { kind: 'queue', id: NEW_QUEUE }, access: 'consume' },
  ],
};

/** Applies a change to the (mutable) definitions for the duration of `fn`. */
function withDefinitions<T>(change: () => () => void, fn: () => T): T {
  const restore = change();
  try {
    return fn();
  } finally {
    restore();
  }
}

function addNewDefinitions(): () => void {
  (QUEUES as Record<string, QueueDefinition>)[NEW_QUEUE] = newQueue;
  API_GROUPS.push(newGroup);
  WORKERS.push(newWorker);
  return () => {
    delete (QUEUES as Record<string, QueueDefinition>)[NEW_QUEUE];
    API_GROUPS.splice(API_GROUPS.indexOf(newGroup), 1);
    WORKERS.splice(WORKERS.indexOf(newWorker), 1);
  };
}

describe('a new API group, worker and queue in the definitions', () => {
  let s: Synthesised;
  beforeAll(() => {
    s = withDefinitions(addNewDefinitions, () => synth({ context: { sandboxDomain: 'sandbox.example.test' } }));
  });
  afterAll(() => s?.cleanup());

  const fnId = (name: string): string => logicalId(s.stack, functionOf(s.stack, name));
  const queueArn = (id: QueueId): unknown => ({ 'Fn::GetAtt': [logicalId(s.stack, s.stack.messaging.queues[id]), 'Arn'] });

  test('adds its Lambdas and every route of the new group', () => {
    s.template.resourceCountIs('AWS::Lambda::Function', functionEntries().length + 2);
    for (const routeKey of apiRoutes(newGroup)) s.template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: routeKey });
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Integration', { IntegrationUri: { 'Fn::GetAtt': [fnId(newGroup.name), 'Arn'] } });
  });

  test('adds the queue with its DLQ and the worker event source', () => {
    const queueId = logicalId(s.stack, s.stack.messaging.queues[NEW_QUEUE]);
    expect(s.template.toJSON().Resources[queueId].Properties).toMatchObject({
      VisibilityTimeout: newQueue.visibilityTimeoutSeconds,
      RedrivePolicy: { maxReceiveCount: newQueue.maxReceiveCount },
    });
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId(newWorker.name) },
      EventSourceArn: queueArn(NEW_QUEUE),
      BatchSize: newWorker.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(functionProperties(s.template, s.stack, newWorker.name)).toMatchObject({
      Timeout: newWorker.timeoutSeconds,
      MemorySize: newWorker.memoryMb,
    });
    expect(functionEnv(s.template, s.stack, newWorker.name)[newQueue.envVar]).toEqual({ Ref: queueId });
  });

  test('a function without memoryMb gets the default memory', () => {
    expect(functionProperties(s.template, s.stack, newGroup.name).MemorySize).toBe(FUNCTION_MEMORY_MB);
  });

  test('read access on the table is read-only', () => {
    const actions = functionActions(s.template, s.stack, newGroup.name);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    for (const write of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'])
      expect(actions).not.toContain(write);
  });

  test('scheduler access: schedule actions on the group schedules, PassRole on the scheduler role only, and its environment', () => {
    const statements = functionStatements(s.template, s.stack, newGroup.name);
    const scheduling = statements.find((st) => actionsOf(st).includes('scheduler:CreateSchedule'))!;
    expect([...actionsOf(scheduling)].sort()).toEqual([...SCHEDULER_ACTIONS].sort());
    expect(JSON.stringify(resourcesOf(scheduling))).toContain(`:schedule/${SCHEDULE_GROUP.name}/*`);

    const passRole = statements.find((st) => actionsOf(st).includes('iam:PassRole'))!;
    const roleArn = { 'Fn::GetAtt': [logicalId(s.stack, s.stack.scheduling.role), 'Arn'] };
    expect(resourcesOf(passRole)).toEqual([roleArn]);
    expect(passRole.Condition).toEqual({ StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } });

    const env = functionEnv(s.template, s.stack, newGroup.name);
    expect(env[SCHEDULE_GROUP.envVar]).toBeDefined();
    expect(env[SCHEDULE_GROUP.roleEnvVar]).toEqual(roleArn);
    for (const target of SCHEDULE_GROUP.targetQueues) expect(env[target.arnEnvVar]).toEqual(queueArn(target.queue));
    expect(env[TOPICS.sesEvents.envVar]).toEqual({ Ref: logicalId(s.stack, s.stack.messaging.topics.sesEvents) });
    expect(env[TABLE.envVar]).toBeDefined();
  });

  test('topic publish grant is scoped to the topic', () => {
    const publish = functionStatements(s.template, s.stack, newGroup.name).find((st) => actionsOf(st).includes('sns:Publish'))!;
    expect(resourcesOf(publish)).toEqual([{ Ref: logicalId(s.stack, s.stack.messaging.topics.sesEvents) }]);
  });

  test('encrypt access on the secrets key is kms:Encrypt only, on that key, with its ARN in the environment', () => {
    const keyArn = { 'Fn::GetAtt': [logicalId(s.stack, s.stack.data.secretsKey), 'Arn'] };
    const kms = functionStatements(s.template, s.stack, newGroup.name).filter((st) => actionsOf(st).some((a) => a.startsWith('kms:')));
    expect(kms.flatMap(actionsOf)).toEqual(['kms:Encrypt']);
    expect(kms.flatMap(resourcesOf)).toEqual([keyArn]);
    expect(functionEnv(s.template, s.stack, newGroup.name)[SECRETS_KEY.envVar]).toEqual(keyArn);
  });

  test('SANDBOX_DOMAIN comes from the sandboxDomain context', () => {
    for (const name of [newGroup.name, newWorker.name, 'emails']) {
      expect(functionEnv(s.template, s.stack, name).SANDBOX_DOMAIN).toBe('sandbox.example.test');
    }
  });
});

describe('settings given as context', () => {
  test('reach every function and the relay/MX task (INBOUND_MX_HOST from inboundMxHost); settings not given are not set', () => {
    const { template, stack, cleanup } = synth({ context: { inboundMxHost: 'mx.example.net', returnPathHost: 'bounces.example.net' } });
    try {
      for (const name of ['domains', 'inbound-email', 'emails']) {
        const env = functionEnv(template, stack, name);
        expect(env).toMatchObject({ INBOUND_MX_HOST: 'mx.example.net', RETURN_PATH_HOST: 'bounces.example.net' });
        expect(env.SPF_INCLUDE).toBeUndefined();
      }
      const task = Object.values(template.findResources('AWS::ECS::TaskDefinition'))[0]!.Properties;
      const containerEnv = Object.fromEntries(
        (task.ContainerDefinitions[0].Environment as { Name: string; Value: unknown }[]).map((e) => [e.Name, e.Value]),
      );
      expect(containerEnv.INBOUND_MX_HOST).toBe('mx.example.net');
    } finally {
      cleanup();
    }
  });
});

describe('inconsistent definitions fail the synthesis with a clear message', () => {
  const construct = (): void => createStack().cleanup();

  test('a worker timeout not below its queue visibility timeout', () => {
    const worker = WORKERS[0]!;
    const original = worker.timeoutSeconds;
    expect(() =>
      withDefinitions(() => {
        worker.timeoutSeconds = QUEUES[worker.queue].visibilityTimeoutSeconds;
        return () => (worker.timeoutSeconds = original);
      }, construct),
    ).toThrow(/must stay below the visibility timeout/);
  });

  test('a worker memory Lambda would refuse', () => {
    const worker = WORKERS[0]!;
    const original = worker.memoryMb;
    expect(() =>
      withDefinitions(() => {
        worker.memoryMb = 64;
        return () => (worker.memoryMb = original);
      }, construct),
    ).toThrow(`Worker "${worker.name}": memoryMb 64 must be a whole number of MB from 128 to 10240`);
  });

  test('a stream worker setting Lambda would refuse', () => {
    const worker = STREAM_WORKERS[0]!;
    const original = worker.maxBatchingWindowMs;
    expect(() =>
      withDefinitions(() => {
        worker.maxBatchingWindowMs = 250;
        return () => (worker.maxBatchingWindowMs = original);
      }, construct),
    ).toThrow(`Stream worker "${worker.name}": maxBatchingWindowMs 250 must be whole seconds`);
  });

  test('an access that does not fit the resource', () => {
    const group = API_GROUPS[0]!;
    const bad = { resource: { kind: 'table' as const }, access: 'publish' as const };
    expect(() =>
      withDefinitions(() => {
        group.grants.push(bad);
        return () => group.grants.splice(group.grants.indexOf(bad), 1);
      }, construct),
    ).toThrow('Access "publish" is not valid on a table');
    const badKey = { resource: { kind: 'secretsKey' as const }, access: 'readWrite' as const };
    expect(() =>
      withDefinitions(() => {
        group.grants.push(badKey);
        return () => group.grants.splice(group.grants.indexOf(badKey), 1);
      }, construct),
    ).toThrow('Access "readWrite" is not valid on a secretsKey');
  });

  test('a malformed route', () => {
    expect(() => parseRoute('/emails', 'emails')).toThrow(/Invalid route "\/emails" in API group "emails"/);
    expect(() => parseRoute('FETCH /emails')).toThrow(/Invalid route/);
    expect(parseRoute('ANY /emails/{proxy+}')).toEqual({ method: 'ANY', path: '/emails/{proxy+}' });
  });

  test('an unknown SES event type', () => {
    expect(toEmailSendingEvent('DELIVERY_DELAY')).toBe('deliveryDelay');
    expect(() => toEmailSendingEvent('BOUNCED')).toThrow(/Unknown SES event type "BOUNCED"/);
  });

  test('a function without its bundle', () => {
    expect(() => createStack({ functionNames: [] })).toThrow(
      /No bundle for function "emails": .*index\.js is missing\. Run `npm run build` first/,
    );
  });
});
