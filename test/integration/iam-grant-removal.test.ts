/**
 * IAM on the local cloud, proven by what a missing grant does: the synthesized template with grants removed
 * from some functions' roles (as a mistake in infra/ would leave them) is deployed on a stack of its own
 * (LOCAL_TEMPLATE_FILE), and the features that need each grant fail with AWS's AccessDenied, while the
 * same functions' other features, and the other functions, work. One grant of each kind removed here:
 * table, index, KMS key, scheduler; and the grants an event source mapping needs (a queue to consume, the
 * table's stream), without which the deploy itself fails, as CreateEventSourceMapping does on AWS.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnTemplate } from '../../localstack/cloud/template/cfn-types';
import { readStackFile } from '../../localstack/cloud/stack-file';
import { removeResources, removeService } from '../support/template-edits';
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
    const shared = readStackFile(SHARED_STACK_DIR)!;
    const template = JSON.parse(readFileSync(shared.template!.file, 'utf8')) as CfnTemplate;
    removeService(template, 'api-keys', 'dynamodb');
    removeResources(template, 'automations', (resource) => JSON.stringify(resource).includes('/index/*'));
    removeService(template, 'webhooks', 'kms');
    removeService(template, 'emails', 'scheduler');
    const file = join(dataDir, 'edited.template.json');
    writeFileSync(file, JSON.stringify(template));
    own = await spawnStack({ dataDir, inMemory: true, timeoutMs: 90_000, env: { LOCAL_TEMPLATE_FILE: file } });
    process.env.TEST_STACK_DATA_DIR = dataDir;
    harness = await import('./harness/stack');
    ({ key, email } = await harness.newAccount({ plan: 'scale', paymentMethod: true }));
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const denied = (action: string) => new RegExp(`iam: User: arn:aws:sts::\\d+:assumed-role/[^/]+/\\S+ is not authorized to perform: ${action} on resource: \\S+`);

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
    const response = await harness.api('POST', '/webhooks', { key, body: { url: `${harness.stack().info.webhook_inbox_url}grants`, events: ['email.delivered'] } });
    expect(response.status).toBe(500);
    expect(own!.output()).toMatch(denied('kms:Encrypt'));
  });

  it('scheduler: a role without the scheduler sends now but cannot schedule', async () => {
    const now = await harness.api('POST', '/emails', { key, body: { from: 'hello@sandbox.mailservice.dev', to: email, subject: 'now', text: 'hi' } });
    expect(now.status).toBe(200);
    const later = await harness.api('POST', '/emails', {
      key,
      body: { from: 'hello@sandbox.mailservice.dev', to: email, subject: 'later', text: 'hi', scheduled_at: new Date(Date.now() + 3_600_000).toISOString() },
    });
    // The scheduler's refusal is the product's 503 (it answers every scheduler failure so).
    expect(later.status).toBe(503);
    expect(own!.output()).toMatch(denied('scheduler:CreateSchedule'));
  });
});

describe('a template whose worker roles cannot read their event sources', () => {
  const edited = (edit: (template: CfnTemplate) => void): string => {
    const shared = readStackFile(SHARED_STACK_DIR)!;
    const template = JSON.parse(readFileSync(shared.template!.file, 'utf8')) as CfnTemplate;
    edit(template);
    const dir = mkdtempSync(join(tmpdir(), 'mailservice-grants-esm-'));
    writeFileSync(join(dir, 'edited.template.json'), JSON.stringify(template));
    return dir;
  };

  it.each([
    ['queue: the send worker without SQS', 'send-email', 'sqs', /execution role does not have permissions to call ReceiveMessage on SQS/],
    ['stream: the tenant-stats worker without DynamoDB', 'tenant-stats', 'dynamodb', /execution role does not have permissions to call DescribeStream on DynamoDB/],
  ])('%s: the deploy fails as CreateEventSourceMapping does', async (_name, fn, service, message) => {
    const dir = edited((template) => removeService(template, fn, service));
    try {
      await expect(spawnStack({ dataDir: dir, inMemory: true, timeoutMs: 90_000, env: { LOCAL_TEMPLATE_FILE: join(dir, 'edited.template.json'), WEBHOOK_CA_FILE: '' } })).rejects.toThrow(message);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
