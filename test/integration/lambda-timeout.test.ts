/**
 * Each function's Timeout from the template, enforced on the local cloud's workers as Lambda enforces it
 * (localstack/cloud/lambda/lambda-timeout.ts, docs/local-cloud/template.md), through a natural slow path: a webhook
 * receiver (this test's HTTPS server) that takes 8 s to answer, within the product's own 10 s webhook timeout.
 * - With the template's timeout (30 s) the webhook-delivery worker waits for it: one request, delivered once.
 * - With the worker's Timeout edited down to 2 s (a stack of its own, LOCAL_TEMPLATE_FILE), every invocation
 *   fails at 2 s with Lambda's "Task timed out" line, its message is not deleted and comes back after the
 *   visibility timeout: the receiver sees the same event (the same webhook-id) again.
 * And the check Lambda makes when it creates an SQS mapping: a template whose queue hides a message for less
 * than its function may run fails to start with Lambda's error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CfnTemplate } from '#localstack/cloud/template/cfn-types';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { deployedTemplate, writeTemplate } from '../support/template-edits';
import { waitFor } from '../support/wait';
import { spawnStack, type SpawnedStack } from './harness/spawn-stack';

const SHARED_STACK_DIR = process.env.TEST_STACK_DATA_DIR!;
const certs = () => ({ certFile: process.env.TEST_WEBHOOK_CERT_FILE!, keyFile: process.env.TEST_WEBHOOK_KEY_FILE! });
/** The CA of the shared stack's test certificates (test/support/https-receiver.ts writes it beside them). */
const testCaFile = () => join(dirname(process.env.TEST_WEBHOOK_CERT_FILE!), 'ca.pem');
const SLOW_RECEIVER_MS = 8000;

/** Sets the Timeout of the function `mailservice <name>`. */
function setTimeoutOf(template: CfnTemplate, name: string, seconds: number): void {
  const fn = Object.values(template.Resources).find(
    (r) => r.Type === 'AWS::Lambda::Function' && r.Properties?.Description === `mailservice ${name}`,
  );
  if (!fn) throw new Error(`no function ${name} in the template`);
  fn.Properties!.Timeout = seconds;
}

/** A new account with a webhook on `receiver` for email.delivered, and one test event sent to it. */
async function oneSlowWebhook(harness: typeof import('./harness/stack'), receiver: HttpsReceiver): Promise<void> {
  const account = await harness.newAccount({ plan: 'scale', paymentMethod: true });
  expect(
    (await harness.api('POST', '/webhooks', { key: account.key, body: { url: receiver.url, events: ['email.delivered'] } })).status,
  ).toBe(200);
  const queued = await harness.api('POST', '/emails/test', { key: account.key, body: { event: 'email.delivered' } });
  expect(queued.status).toBe(200);
}

describe('a worker whose handler outlives its function timeout', () => {
  let receiver: HttpsReceiver;
  beforeEach(async () => {
    receiver = await startHttpsReceiver({ ...certs(), respond: () => ({ status: 200, body: 'ok', delayMs: SLOW_RECEIVER_MS }) });
  });
  afterEach(async () => {
    await receiver.close();
  });

  it("with the template's timeout (30 s), an 8 s webhook answer is waited for: the event is delivered once", async () => {
    const harness = await import('./harness/stack');
    await oneSlowWebhook(harness, receiver);
    await receiver.waitForRequests(1, 60_000);
    // Past the answer and more than two of the shared stack's 1 s visibility timeouts: no second request came.
    await new Promise((resolve) => setTimeout(resolve, SLOW_RECEIVER_MS + 3000));
    expect(receiver.requests).toHaveLength(1);
  }, 120_000);

  it('with the Timeout edited down to 2 s, the invocation fails at 2 s and the same event comes back', async () => {
    const template = deployedTemplate(SHARED_STACK_DIR);
    setTimeoutOf(template, 'webhook-delivery', 2);
    const dir = mkdtempSync(join(tmpdir(), 'mailservice-timeout-'));
    let own: SpawnedStack | undefined;
    try {
      own = await spawnStack({
        dataDir: dir,
        inMemory: true,
        timeoutMs: 90_000,
        env: { LOCAL_TEMPLATE_FILE: writeTemplate(dir, template), LOCAL_QUEUE_VISIBILITY_SECONDS: '2', WEBHOOK_CA_FILE: testCaFile() },
      });
      process.env.TEST_STACK_DATA_DIR = dir;
      jest.resetModules();
      const harness = await import('./harness/stack');
      await oneSlowWebhook(harness, receiver);
      // The first invocation is still waiting for its answer (8 s) when its message is received again.
      const [first, second] = await receiver.waitForRequests(2, 60_000);
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect(second!.receivedAt.getTime() - first!.receivedAt.getTime()).toBeLessThan(SLOW_RECEIVER_MS);
      // The message comes back at the queue's 2 s visibility, the moment the invocation times out: the
      // second request can reach the receiver before the timeout's log line reaches this process.
      const logged = (pattern: RegExp) =>
        waitFor(() => pattern.test(own!.output()) || undefined, `the stack's output to match ${pattern}`, 10_000);
      await logged(/webhook-delivery: \S+ \S+ Task timed out after 2\.\d\d seconds/);
      await logged(/webhook-delivery: invocation failed, whole batch will be retried: Task timed out after 2\.\d\d seconds/);
    } finally {
      process.env.TEST_STACK_DATA_DIR = SHARED_STACK_DIR;
      jest.resetModules();
      await own?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});

describe('a template whose queue hides a message for less than its function may run', () => {
  it('fails to start as CreateEventSourceMapping does', async () => {
    const template = deployedTemplate(SHARED_STACK_DIR);
    // The send queue's visibility is 60 s; its worker may now run 61 s.
    setTimeoutOf(template, 'send-email', 61);
    const dir = mkdtempSync(join(tmpdir(), 'mailservice-timeout-visibility-'));
    try {
      await expect(
        spawnStack({
          dataDir: dir,
          inMemory: true,
          timeoutMs: 90_000,
          env: { LOCAL_TEMPLATE_FILE: writeTemplate(dir, template), WEBHOOK_CA_FILE: '' },
        }),
      ).rejects.toThrow(
        /InvalidParameterValueException: the event source mapping of \S+ cannot be created: Queue visibility timeout: 60 seconds is less than Function timeout: 61 seconds/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
