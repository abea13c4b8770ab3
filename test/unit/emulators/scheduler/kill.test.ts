/**
 * Kill test: the scheduler emulator in a child process on a temp data dir (kill-child.ts), fauxqs
 * (SQS) here in the parent so it outlives the kills. Several rounds of: start the child, burst
 * CreateSchedule / UpdateSchedule / DeleteSchedule from concurrent clients, SIGKILL the child's
 * process group at a random moment. Schedules are due from "already past" to a few seconds ahead,
 * so some fire before a kill, some come due while the emulator is down, some after the restart.
 * Then a last start, and:
 *   - every answered CreateSchedule fires at least once (its Input reaches the queue);
 *   - every answered UpdateSchedule (moving a far-future schedule to now) fires with the new Input;
 *   - every answered DeleteSchedule is still deleted.
 * Re-fires (a send whose completion a kill did not let the emulator record) are allowed and counted.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import {
  CreateScheduleCommand,
  DeleteScheduleCommand,
  GetScheduleCommand,
  SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startFauxqs, type FauxqsServer } from 'fauxqs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { sigkill, sleep, startChild, terminate, type Child } from '../ses/child';
import { credentials, region, ROLE_ARN } from './harness';

const SCRIPT = path.join(__dirname, 'kill-child.ts');
const ROUNDS = 4;
const WORKERS = 6;
const FAR_FUTURE = 'at(2099-01-01T00:00:00)';

let fx: FauxqsServer;
let sqs: SQSClient;
let queue: { queueUrl: string; queueArn: string };
let dataDir: string;
const children: Child[] = [];

beforeAll(async () => {
  fx = await startFauxqs({ port: 0, logger: false });
  queue = fx.createQueue('scheduler-kill');
  sqs = new SQSClient({ endpoint: fx.address, region, credentials });
  dataDir = mkdtempSync(path.join(tmpdir(), 'scheduler-kill-'));
});

afterAll(async () => {
  for (const c of children) await sigkill(c);
  sqs?.destroy();
  await fx?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<{ child: Child; client: SchedulerClient }> {
  const child = await startChild(SCRIPT, { DATA_DIR: dataDir, SQS_ENDPOINT: fx.address });
  children.push(child);
  return { child, client: new SchedulerClient({ endpoint: `http://127.0.0.1:${child.port}`, region, credentials, maxAttempts: 1 }) };
}

/** at() `ms` from now (second precision; negative = already past). */
function atFromNow(ms: number): string {
  return `at(${new Date(Date.now() + ms).toISOString().slice(0, 19)})`;
}

function schedule(name: string, expression: string, input: string, deleteAfter: boolean) {
  return {
    Name: name,
    ScheduleExpression: expression,
    FlexibleTimeWindow: { Mode: 'OFF' as const },
    ActionAfterCompletion: deleteAfter ? ('DELETE' as const) : ('NONE' as const),
    Target: { Arn: queue.queueArn, RoleArn: ROLE_ARN, Input: input },
  };
}

interface Expectations {
  /** Inputs that must reach the queue at least once. */
  mustFire: Set<string>;
  /** Schedules whose DeleteSchedule was answered. */
  deleted: Set<string>;
}

/** WORKERS concurrent loops of create / create+update / create+delete until `stopped()`. */
function burst(client: SchedulerClient, expect_: Expectations, stopped: () => boolean, round: number): Promise<void>[] {
  let n = 0;
  return Array.from({ length: WORKERS }, async () => {
    while (!stopped()) {
      const i = n++;
      const name = `r${round}-s${i}`;
      try {
        if (i % 4 === 0) {
          await client.send(new CreateScheduleCommand(schedule(name, FAR_FUTURE, `never:${name}`, i % 8 === 0)));
          await client.send(
            new UpdateScheduleCommand(schedule(name, atFromNow(-1000 + Math.random() * 3000), `updated:${name}`, i % 8 === 0)),
          );
          expect_.mustFire.add(`updated:${name}`);
        } else if (i % 4 === 1) {
          await client.send(new CreateScheduleCommand(schedule(name, FAR_FUTURE, `never:${name}`, false)));
          await client.send(new DeleteScheduleCommand({ Name: name }));
          expect_.deleted.add(name);
        } else {
          await client.send(
            new CreateScheduleCommand(schedule(name, atFromNow(-1000 + Math.random() * 4000), `created:${name}`, i % 2 === 0)),
          );
          expect_.mustFire.add(`created:${name}`);
        }
      } catch (err) {
        if (!stopped()) throw err;
      }
    }
  });
}

async function drainUntil(received: Map<string, number>, done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) {
    const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    const messages = out.Messages ?? [];
    for (const m of messages) received.set(m.Body ?? '', (received.get(m.Body ?? '') ?? 0) + 1);
    if (messages.length > 0) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queue.queueUrl,
          Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
    }
  }
}

it('fires every answered schedule at least once and keeps every answered delete across SIGKILLs mid-burst', async () => {
  const began = Date.now();
  const expected: Expectations = { mustFire: new Set(), deleted: new Set() };
  const received = new Map<string, number>();

  for (let round = 0; round < ROUNDS; round++) {
    const { child, client } = await start();
    const before = expected.mustFire.size;
    let stopped = false;
    const workers = burst(client, expected, () => stopped, round);
    // The kill lands at a random moment once the burst is answering.
    const deadline = Date.now() + 10_000;
    while (expected.mustFire.size === before && Date.now() < deadline) await sleep(5);
    await sleep(Math.floor(Math.random() * 500));
    stopped = true;
    await sigkill(child);
    await Promise.all(workers);
    client.destroy();
    expect(expected.mustFire.size).toBeGreaterThan(before);
    // Down for a moment: schedules come due meanwhile.
    await sleep(Math.floor(Math.random() * 300));
  }

  const { child, client } = await start();
  const missing = (): string[] => [...expected.mustFire].filter((input) => !received.has(input));
  await drainUntil(received, () => missing().length === 0, 20_000);
  expect(missing()).toEqual([]);
  // A deleted schedule never fires (its only Input is `never:`), and stays deleted.
  expect([...received.keys()].filter((b) => b.startsWith('never:'))).toEqual([]);
  const resurrected: string[] = [];
  for (const name of expected.deleted) {
    const err = await client.send(new GetScheduleCommand({ Name: name })).then(
      () => undefined,
      (e: Error) => e,
    );
    if (err?.name !== 'ResourceNotFoundException') resurrected.push(name);
  }
  expect(resurrected).toEqual([]);

  const refired = [...received.values()].filter((n) => n > 1).length;
  client.destroy();
  await terminate(child);
  process.stdout.write(
    `scheduler kill test: ${ROUNDS} kills, ${expected.mustFire.size} answered schedules fired, ${expected.deleted.size} answered deletes kept, ${refired} fired more than once, ${Date.now() - began} ms\n`,
  );
});
