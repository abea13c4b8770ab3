/**
 * The synthesized template read as the local cloud deploys it: every function maps to its source entry with
 * the template's settings, every event source, route and schedule is found, and every role's policies resolve.
 */
import { apiRoutes } from '#infra/api-routes';
import { API_GROUPS, MTA_STS_API, QUEUES, SCHEDULED_TASKS, STREAM_WORKERS, TABLE, WORKERS } from '#infra/definitions';
import { functionEntries } from '#infra/functions';
import { DeployedStack } from '#localstack/cloud/template/deployed-stack';
import { readApis, readEventSources, readFunctions, readRoutes, readSchedules } from '#localstack/cloud/template/functions';
import { resourcePolicies, rolePolicies } from '#localstack/cloud/template/iam-policies';
import { physicalName } from '#localstack/cloud/template/physical-names';
import { readRelayTask } from '#localstack/cloud/template/relay-task';
import { legacyPhysicalNames } from '#localstack/cloud/template/stack-state';
import { synthesizedTemplate } from '#localstack/cloud/template/synthesize';

jest.setTimeout(120_000);

let stack: DeployedStack;

beforeAll(async () => {
  const { template } = await synthesizedTemplate();
  stack = new DeployedStack(template, {
    stackName: 'Mailservice',
    region: 'us-east-1',
    accountId: '000000000000',
    apiUrl: 'http://127.0.0.1:3000',
  });
  // What emulators answer at creation.
  for (const id of stack.ofType('AWS::SQS::Queue')) stack.learn(id, { ref: `http://sqs.local/000000000000/${stack.record(id).name}` });
  for (const id of stack.ofType('AWS::DynamoDB::Table'))
    stack.learn(id, { attributes: { StreamArn: `${String(stack.record(id).attributes.Arn)}/stream/2026-01-01T00:00:00.000` } });
  for (const id of stack.ofType('AWS::KMS::Key'))
    stack.learn(id, { ref: 'k1', attributes: { Arn: 'arn:aws:kms:us-east-1:000000000000:key/k1', KeyId: 'k1' } });
});

describe('the synthesized template, read for the local cloud', () => {
  it('maps every function of infra/functions.ts to its source entry, with the template settings and an environment of plain strings', () => {
    const functions = readFunctions(stack);
    expect(functions.map((fn) => fn.name).sort()).toEqual(
      functionEntries()
        .map((e) => e.name)
        .sort(),
    );
    const emails = functions.find((fn) => fn.name === 'emails')!;
    expect(emails).toMatchObject({
      entry: 'functions/api/emails/handler.ts',
      handlerExport: 'handler',
      memoryMb: 1024,
      runtime: expect.stringMatching(/^nodejs2\d\.x$/),
    });
    expect(emails.environment[TABLE.envVar]).toBe(stack.record(stack.ofType('AWS::DynamoDB::Table')[0]!).name);
    expect(emails.environment.LINKS_BASE_URL).toBe('http://127.0.0.1:3000');
    for (const fn of functions) for (const value of Object.values(fn.environment)) expect(typeof value).toBe('string');
  });

  it("finds each worker's queue, each stream worker's settings and on-failure queue, each route and the reconciler's schedule", () => {
    const functions = readFunctions(stack);
    const sources = readEventSources(stack, functions);
    for (const worker of WORKERS) {
      const source = sources.find((s) => s.function.name === worker.name);
      expect(source).toMatchObject({
        kind: 'sqs',
        batchSize: worker.batchSize,
        queueArn: expect.stringContaining(`:Mailservice-Messaging`),
      });
    }
    for (const worker of STREAM_WORKERS) {
      const source = sources.find((s) => s.function.name === worker.name);
      expect(source).toMatchObject({
        kind: 'stream',
        batchSize: worker.batchSize,
        filters: worker.filters,
        retryAttempts: worker.retryAttempts,
        onFailureArn: expect.stringContaining('OnFailure'),
      });
    }
    const routes = readRoutes(stack, functions);
    // Three HTTP APIs: the service's (on its execute-api endpoint), the MTA-STS one and the link domains' one
    // (custom domain names only).
    const apis = readApis(stack);
    expect(apis.map((api) => [api.stages, api.executeApiEndpoint])).toEqual([
      [['$default'], true],
      [['$default'], false],
      [['$default'], false],
    ]);
    const routesOf = (apiId: string) =>
      routes
        .filter((r) => r.apiId === apiId)
        .map((r) => `${r.routeKey} -> ${r.function.name}`)
        .sort();
    const main = apis.find((api) => api.executeApiEndpoint)!;
    expect(routesOf(main.apiId)).toEqual(API_GROUPS.flatMap((g) => apiRoutes(g).map((r) => `${r} -> ${g.name}`)).sort());
    const links = API_GROUPS.find((g) => g.name === 'links')!;
    expect(
      apis
        .filter((api) => !api.executeApiEndpoint)
        .map((api) => routesOf(api.apiId))
        .sort(),
    ).toEqual(
      [
        MTA_STS_API.routes.map((r) => `${r} -> ${MTA_STS_API.name}`),
        apiRoutes(links)
          .map((r) => `${r} -> links`)
          .sort(),
      ].sort(),
    );
    expect(readSchedules(stack, functions)).toEqual(
      SCHEDULED_TASKS.map((task) =>
        expect.objectContaining({ everyMs: task.everyMinutes * 60_000, function: expect.objectContaining({ name: task.name }) }),
      ),
    );
  });

  it("resolves every role's policies and every resource policy, and the relay task's environment and role", () => {
    const policies = rolePolicies(stack);
    for (const fn of readFunctions(stack)) expect(policies.get(fn.roleLogicalId)!.length).toBeGreaterThan(0);
    const queueArn = (url: string) => `arn:aws:sqs:us-east-1:000000000000:${url.split('/').pop()}`;
    const resources = resourcePolicies(stack, queueArn);
    expect([...resources.keys()].filter((arn) => arn.startsWith('arn:aws:sqs:')).length).toBe(stack.ofType('AWS::SQS::Queue').length);
    expect(resources.get('arn:aws:kms:us-east-1:000000000000:key/k1')).toBeDefined();
    const relay = readRelayTask(stack)!;
    expect(relay.environment[TABLE.envVar]).toBeDefined();
    expect(policies.get(relay.roleLogicalId)!.length).toBeGreaterThan(0);
  });

  it('keeps a data folder from before the template deploy on its names, by construct path', () => {
    const legacy = legacyPhysicalNames(stack.template);
    expect(Object.values(legacy)).toEqual(
      expect.arrayContaining([TABLE.name, QUEUES.send.name, QUEUES.send.dlqName, STREAM_WORKERS[0]!.onFailure.queueName]),
    );
  });

  it("names resources as CloudFormation would, without the random suffix, within each service's rule", () => {
    expect(physicalName('Mailservice', 'MessagingSendQueue7488DADB', 'AWS::SQS::Queue')).toBe('Mailservice-MessagingSendQueue7488DADB');
    expect(physicalName('Mailservice', 'DataMailBucket645F84D7', 'AWS::S3::Bucket')).toBe('mailservice-datamailbucket645f84d7');
    const long = physicalName('Mailservice', `Workers${'X'.repeat(90)}OnFailure3E6EBA7F`, 'AWS::SQS::Queue');
    expect(long.length).toBe(80);
    expect(long.endsWith('OnFailure3E6EBA7F')).toBe(true);
    expect(() => physicalName('Mailservice', 'X', 'AWS::Unknown::Thing')).toThrow(/no naming rule/);
  });
});
