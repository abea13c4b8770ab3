/**
 * Test harness: a real fauxqs (SQS) and the real scheduler emulator, in process, with the official
 * SDK clients pointed at them.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import { startFauxqs, type FauxqsServer } from 'fauxqs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startSchedulerEmulator, type SchedulerEmulator } from '#localstack/emulators/scheduler';

export const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
export const region = 'us-east-1';
export const ROLE_ARN = 'arn:aws:iam::000000000000:role/scheduler';

export interface Harness {
  fx: FauxqsServer;
  sqs: SQSClient;
  logs: string[];
  start(dataDir?: string): Promise<{ emulator: SchedulerEmulator; client: SchedulerClient }>;
  close(): Promise<void>;
}

export async function createHarness(): Promise<Harness> {
  const fx = await startFauxqs({ port: 0, logger: false });
  const sqs = new SQSClient({ endpoint: fx.address, region, credentials });
  const logs: string[] = [];
  const running: { emulator: SchedulerEmulator; client: SchedulerClient }[] = [];
  return {
    fx,
    sqs,
    logs,
    async start(dataDir) {
      const emulator = await startSchedulerEmulator({
        dataDir,
        sqs: { endpoint: fx.address, region, credentials },
        log: (msg) => logs.push(msg),
      });
      const client = new SchedulerClient({ endpoint: emulator.url, region, credentials, maxAttempts: 1 });
      running.push({ emulator, client });
      return { emulator, client };
    },
    async close() {
      const errors: unknown[] = [];
      for (const r of running) {
        r.client.destroy();
        await r.emulator.stop().catch((err: unknown) => errors.push(err));
      }
      sqs.destroy();
      await fx.stop();
      if (errors.length > 0) throw errors[0];
    },
  };
}

/** A temp directory removed by the returned cleanup. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'scheduler-emulator-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

let counter = 0;
/** A unique queue name for one test. */
export function queueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

/** `at()` for `ms` from now, rounded UP to the next whole second (at() has second precision). */
export function atIn(ms: number): { expression: string; dueAt: number } {
  const dueAt = Math.ceil((Date.now() + ms) / 1000) * 1000;
  return { expression: `at(${new Date(dueAt).toISOString().slice(0, 19)})`, dueAt };
}

/** Receives up to 10 messages, long-polling up to `waitSeconds`. */
export async function receive(sqs: SQSClient, queueUrl: string, waitSeconds: number): Promise<Message[]> {
  const out = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: waitSeconds,
      MessageAttributeNames: ['All'],
    }),
  );
  return out.Messages ?? [];
}

/** Waits until `ms` epoch. */
export function sleepUntil(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms - Date.now())));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export { errorOf } from '#test/support/error-of';

/**
 * Retries `check` until it stops throwing or `timeoutMs` passes. The default is generous: a passing check returns
 * at once, and on a loaded machine (the whole suite on 2 cores) a timer-driven firing can lag several seconds.
 */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(50);
    }
  }
}
