/**
 * IAM on the local cloud, proven by what a missing grant does: the synthesized template with grants removed
 * from some functions' roles (as a mistake in infra/ would leave them) is deployed on a stack of its own
 * (LOCAL_TEMPLATE_FILE), and the features that need each grant fail with AWS's AccessDenied, while the
 * same functions' other features, and the other functions, work. One grant of each kind removed here:
 * table, index, KMS key, scheduler, bucket, SES, Route 53; the grants an event source mapping needs (a queue to
 * consume, the table's stream), without which the deploy itself fails, as CreateEventSourceMapping does on AWS;
 * and the service-to-service ones: the topic policy's statement for SES, the scheduler role's send to its queue,
 * the SES events queue's policy statement for SNS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  deployedTemplate,
  grantsService,
  removeResources,
  removeService,
  removeStatements,
  writeTemplate,
} from '../support/template-edits';
import { spawnStack, type SpawnedStack } from './harness/spawn-stack';

/** The shared test stack's data folder: its stack.json names the template it deployed (read before a test points TEST_STACK_DATA_DIR elsewhere). */
const SHARED_STACK_DIR = process.env.TEST_STACK_DATA_DIR!;

describe('a template with grants removed, deployed (stack of its own)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailservice-grants-'));
  let own: SpawnedStack | undefined;
  let harness: typeof import('./harness/stack');
  let key: string;
  let email: string;

  beforeAll(async () => {
    // The template the shared test stack deployed (its cache file), edited.
    const template = deployedTemplate(SHARED_STACK_DIR);
    removeService(template, 'api-keys', 'dynamodb');
    removeResources(template, 'automations', (resource) => JSON.stringify(resource).includes('/index/*'));
    removeService(template, 'webhooks', 'kms');
    removeService(template, 'emails', 'scheduler');
    removeService(template, 'emails', 's3');
    removeService(template, 'send-email', 'ses');
    removeService(template, 'domains', 'route53');
    own = await spawnStack({ dataDir, inMemory: true, timeoutMs: 90_000, env: { LOCAL_TEMPLATE_FILE: writeTemplate(dataDir, template) } });
    process.env.TEST_STACK_DATA_DIR = dataDir;
    harness = await import('./harness/stack');
    ({ key, email } = await harness.newAccount({ plan: 'scale', paymentMethod: true }));
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const denied = (action: string) =>
    new RegExp(`iam: User: arn:aws:sts::\\d+:assumed-role/[^/]+/\\S+ is not authorized to perform: ${action} on resource: \\S+`);

  it('table: a role without DynamoDB cannot read the table (GET /api-keys fails) and says so', async () => {
    const response = await harness.api('GET', '/api-keys', { key });
    expect(response.status).toBe(500);
    expect(own!.output()).toMatch(denied('dynamodb:(GetItem|Query|BatchGetItem)'));
  });

  it('index: a role granted the table but not its indexes writes automations and cannot list them', async () => {
    const created = await harness.api('POST', '/automations', {
      key,
      body: { name: 'welcome', trigger: { event: 'user.created' }, steps: [{ key: 'wait', type: 'delay', duration: '1 hour' }] },
    });
    expect(created.status).toBe(201);
    const listed = await harness.api('GET', '/automations', { key });
    expect(listed.status).toBe(500);
    expect(own!.output()).toMatch(denied('dynamodb:Query'));
    expect(own!.output()).toMatch(/dynamodb:Query on resource: \S+\/index\/GSI1/);
  });

  it('key: a role without KMS cannot seal a webhook signing secret (POST /webhooks fails)', async () => {
    const response = await harness.api('POST', '/webhooks', {
      key,
      body: { url: `${harness.stack().info.webhook_inbox_url}grants`, events: ['email.delivered'] },
    });
    expect(response.status).toBe(500);
    expect(own!.output()).toMatch(denied('kms:Encrypt'));
  });

  it('scheduler: a role without the scheduler sends now but cannot schedule', async () => {
    const now = await harness.api('POST', '/emails', {
      key,
      body: { from: 'hello@sandbox.mailservice.dev', to: email, subject: 'now', text: 'hi' },
    });
    expect(now.status).toBe(200);
    const later = await harness.api('POST', '/emails', {
      key,
      body: {
        from: 'hello@sandbox.mailservice.dev',
        to: email,
        subject: 'later',
        text: 'hi',
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    // The scheduler's refusal is the product's 503 (it answers every scheduler failure so).
    expect(later.status).toBe(503);
    expect(own!.output()).toMatch(denied('scheduler:CreateSchedule'));
  });

  it('bucket: a role without S3 sends without attachments but cannot store one', async () => {
    const withFile = await harness.api('POST', '/emails', {
      key,
      body: {
        from: 'hello@sandbox.mailservice.dev',
        to: email,
        subject: 'file',
        text: 'hi',
        attachments: [{ filename: 'a.txt', data: Buffer.from('hello').toString('base64') }],
      },
    });
    // The product answers an S3 failure 503 (shared/doors/http/errors.ts: an AWS dependency failing).
    expect(withFile.status).toBe(503);
    expect(own!.output()).toMatch(denied('s3:PutObject'));
  });

  it('SES: a send worker without SES never delivers, and says why', async () => {
    const sent = await harness.api('POST', '/emails', {
      key,
      body: { from: 'hello@sandbox.mailservice.dev', to: email, subject: 'never', text: 'hi' },
    });
    expect(sent.status).toBe(200);
    await harness.waitFor(
      async () => denied('ses:(GetAccount|SendEmail)').test(own!.output()) || undefined,
      'the send worker denied SES',
      60_000,
    );
    expect((await harness.api('GET', `/emails/${sent.body.id}`, { key })).body.email.status).not.toBe('delivered');
  });

  it("Route 53: DNS apply with the service's own role is refused (400 dns_permission_denied)", async () => {
    const domain = await harness.api('POST', '/domains', { key, body: { name: `grants-${Date.now().toString(36)}.example.com` } });
    expect(domain.status).toBe(201);
    const applied = await harness.api('POST', `/domains/${domain.body.domain?.id ?? domain.body.id}`, {
      key,
      body: { action: 'apply', provider: 'route53' },
    });
    expect(applied.status).toBe(400);
    expect(applied.body.error.details.reason).toBe('dns_permission_denied');
    expect(own!.output()).toMatch(denied('route53:ListHostedZonesByName'));
  });
});

describe('a template whose worker roles cannot read their event sources', () => {
  it.each([
    ['queue: the send worker without SQS', 'send-email', 'sqs', /execution role does not have permissions to call ReceiveMessage on SQS/],
    [
      'stream: the tenant-stats worker without DynamoDB',
      'tenant-stats',
      'dynamodb',
      /execution role does not have permissions to call DescribeStream on DynamoDB/,
    ],
  ])(
    '%s: the deploy fails as CreateEventSourceMapping does',
    async (_name, fn, service, message) => {
      const template = deployedTemplate(SHARED_STACK_DIR);
      removeService(template, fn, service);
      const dir = mkdtempSync(join(tmpdir(), 'mailservice-grants-esm-'));
      try {
        await expect(
          spawnStack({
            dataDir: dir,
            inMemory: true,
            timeoutMs: 90_000,
            env: { LOCAL_TEMPLATE_FILE: writeTemplate(dir, template), WEBHOOK_CA_FILE: '' },
          }),
        ).rejects.toThrow(message);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

describe('a template whose events topic does not let SES publish, and whose scheduler role cannot send (stack of its own)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailservice-grants-topic-'));
  let own: SpawnedStack | undefined;

  beforeAll(async () => {
    const template = deployedTemplate(SHARED_STACK_DIR);
    // The events topic's policy: its statement for SES removed.
    removeStatements(
      template,
      { policyType: 'AWS::SNS::TopicPolicy' },
      (statement) => statement.Principal?.Service === 'ses.amazonaws.com',
    );
    // The role EventBridge Scheduler assumes to send scheduled messages: its SQS statements removed.
    const schedulerRole = Object.keys(template.Resources).find(
      (id) => template.Resources[id]!.Type === 'AWS::IAM::Role' && id.startsWith('SchedulingRole'),
    )!;
    removeStatements(template, { role: schedulerRole }, grantsService('sqs'));
    own = await spawnStack({
      dataDir,
      inMemory: true,
      timeoutMs: 90_000,
      env: { LOCAL_TEMPLATE_FILE: writeTemplate(dataDir, template), WEBHOOK_CA_FILE: '' },
    });
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('topic: SES sends but its events never reach the service, so the email is never marked delivered', async () => {
    process.env.TEST_STACK_DATA_DIR = dataDir;
    jest.resetModules();
    const harness = await import('./harness/stack');
    const { key, email } = await harness.newAccount({ plan: 'scale', paymentMethod: true });
    const sent = await harness.api('POST', '/emails', {
      key,
      body: { from: 'hello@sandbox.mailservice.dev', to: email, subject: 'topic', text: 'hi' },
    });
    expect(sent.status).toBe(200);
    await harness.waitFor(
      async () => /dropped \S+ event of \S+: SES may not publish to arn:aws:sns:/.test(own!.output()) || undefined,
      'SES refused by the topic policy',
      60_000,
    );
    expect((await harness.api('GET', `/emails/${sent.body.id}`, { key })).body.email.status).not.toBe('delivered');
  }, 120_000);

  it('scheduler role: a scheduled email is due but never reaches the send queue (the scheduler is refused as its role)', async () => {
    const harness = await import('./harness/stack');
    const { key, email } = await harness.newAccount({ plan: 'scale', paymentMethod: true });
    const sent = await harness.api('POST', '/emails', {
      key,
      body: {
        from: 'hello@sandbox.mailservice.dev',
        to: email,
        subject: 'due',
        text: 'hi',
        scheduled_at: new Date(Date.now() + 3_000).toISOString(),
      },
    });
    expect(sent.status).toBe(200);
    await harness.waitFor(
      async () =>
        /scheduler: sending \S+ to arn:aws:sqs:\S+ failed \(AccessDenied: \S+ may not sqs:SendMessage/.test(own!.output()) || undefined,
      'the scheduler refused as its role',
      60_000,
    );
    expect((await harness.api('GET', `/emails/${sent.body.id}`, { key })).body.email.status).toBe('scheduled');
  }, 120_000);
});

describe('a template whose SES events queue does not let SNS deliver (stacks of their own)', () => {
  // The queue's policy: its statement for sns.amazonaws.com (sqs:SendMessage for the events topic) removed.
  // SES still publishes to the topic; SNS's delivery to the queue fails and the event is lost, as on AWS.
  // The same template with LOCAL_IAM=off delivers: the edit breaks nothing but the grant.
  it.each([
    ['enforce', 'the delivery event never reaches the events worker, and the drop is logged'],
    ['off', 'with IAM off, the same template delivers the event and the email is marked delivered'],
  ])(
    'LOCAL_IAM=%s: %s',
    async (mode) => {
      const template = deployedTemplate(SHARED_STACK_DIR);
      removeStatements(
        template,
        { policyType: 'AWS::SQS::QueuePolicy' },
        (statement) => statement.Principal?.Service === 'sns.amazonaws.com',
      );
      const dir = mkdtempSync(join(tmpdir(), 'mailservice-grants-queue-'));
      const own = await spawnStack({
        dataDir: dir,
        inMemory: true,
        timeoutMs: 90_000,
        env: { LOCAL_TEMPLATE_FILE: writeTemplate(dir, template), WEBHOOK_CA_FILE: '', LOCAL_IAM: mode },
      });
      try {
        process.env.TEST_STACK_DATA_DIR = dir;
        jest.resetModules();
        const harness = await import('./harness/stack');
        const account = await harness.newAccount({ plan: 'scale', paymentMethod: true });
        const sent = await harness.api('POST', '/emails', {
          key: account.key,
          body: { from: 'hello@sandbox.mailservice.dev', to: account.email, subject: 'queue policy', text: 'hi' },
        });
        expect(sent.status).toBe(200);
        if (mode === 'off') {
          await harness.waitForStatus(account, sent.body.id, 'delivered', 60_000);
          expect(own.output()).not.toMatch(/sns: dropped a message/);
          return;
        }
        // SES's delivery event, published to the topic, dropped on the way to the events queue.
        const drop =
          /sns: dropped a message of arn:aws:sns:\S+ for its subscription arn:aws:sqs:\S+: no statement of the queue's policy allows sns\.amazonaws\.com sqs:SendMessage/;
        await harness.waitFor(async () => drop.test(own.output()) || undefined, 'SNS refused by the events queue policy', 60_000);
        // SES sent it (the local mailbox has it); only its event was lost on the way to the service, which
        // (given the time the events worker takes with the policy, a second or two) never marks it delivered.
        expect(await harness.sesMessages({ email_id: sent.body.id })).toHaveLength(1);
        await new Promise((resolve) => setTimeout(resolve, 5000));
        const email = (await harness.api('GET', `/emails/${sent.body.id}`, { key: account.key })).body.email;
        expect({ status: email.status, delivered_at: email.delivered_at }).toEqual({ status: 'sent', delivered_at: null });
      } finally {
        process.env.TEST_STACK_DATA_DIR = SHARED_STACK_DIR;
        await own.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    150_000,
  );
});
