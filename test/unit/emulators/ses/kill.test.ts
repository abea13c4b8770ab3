/**
 * Kill test: the SES emulator in a child process on a temp data dir (kill-child.ts), fauxqs (SNS ->
 * SQS) here in the parent so it outlives the kills. Several rounds of: start the child, burst
 * SendEmail from concurrent clients, SIGKILL the child's process group at a random moment. Then a
 * last start, and:
 *   - every message SES answered with a MessageId is in the store;
 *   - every event owed for it (all types subscribed, per the mailbox simulator) reaches the queue at
 *     least once, and a re-published event has exactly the content of the first publish.
 * Some rounds use a long outcome delay so kills land while outcome events are still due.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import {
  CreateConfigurationSetCommand,
  CreateConfigurationSetEventDestinationCommand,
  SESv2Client,
  SendEmailCommand,
} from '@aws-sdk/client-sesv2';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startFauxqs } from 'fauxqs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { plannedEvents } from '#localstack/emulators/ses/simulator';
import { sigkill, sleep, startChild, terminate, type Child } from './child';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const region = 'us-east-1';
const SCRIPT = path.join(__dirname, 'kill-child.ts');
const SET = 'kill-set';
const ROUNDS = 4;
const WORKERS = 6;

const RECIPIENTS: string[][] = [
  ['success@simulator.amazonses.com'],
  ['bounce@simulator.amazonses.com'],
  ['complaint@simulator.amazonses.com'],
  ['someone@example.org', 'suppressionlist@simulator.amazonses.com', 'bounce+x@simulator.amazonses.com'],
];

type Fauxqs = Awaited<ReturnType<typeof startFauxqs>>;
let fx: Fauxqs;
let sqs: SQSClient;
let queueUrl: string;
let topicArn: string;
let dataDir: string;
const children: Child[] = [];

beforeAll(async () => {
  fx = await startFauxqs({ port: 0, logger: false });
  ({ queueUrl } = fx.createQueue('kill-events'));
  ({ topicArn } = fx.createTopic('kill-ses-events'));
  fx.subscribe({ topic: 'kill-ses-events', queue: 'kill-events' });
  sqs = new SQSClient({ endpoint: fx.address, region, credentials });
  dataDir = mkdtempSync(path.join(tmpdir(), 'ses-kill-'));
});

afterAll(async () => {
  for (const c of children) await sigkill(c);
  sqs?.destroy();
  await fx?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function client(child: Child): SESv2Client {
  return new SESv2Client({ endpoint: `http://127.0.0.1:${child.port}`, region, credentials, maxAttempts: 1 });
}

async function start(outcomeDelayMs: number): Promise<Child> {
  const child = await startChild(SCRIPT, { DATA_DIR: dataDir, SNS_ENDPOINT: fx.address, OUTCOME_DELAY_MS: String(outcomeDelayMs) });
  children.push(child);
  return child;
}

/** Sends from WORKERS concurrent loops until `stopped()`; records answered ids. Errors before the kill fail the test. */
function burst(ses: SESv2Client, answered: Map<string, string[]>, stopped: () => boolean, round: number): Promise<void>[] {
  let n = 0;
  return Array.from({ length: WORKERS }, async () => {
    while (!stopped()) {
      const i = n++;
      const to = RECIPIENTS[i % RECIPIENTS.length]!;
      try {
        const out = await ses.send(
          new SendEmailCommand({
            FromEmailAddress: 'sender@example.com',
            Destination: { ToAddresses: to },
            Content: { Simple: { Subject: { Data: `r${round}-${i}` }, Body: { Text: { Data: 'hi' } } } },
            ConfigurationSetName: SET,
          }),
        );
        answered.set(out.MessageId!, to);
      } catch (err) {
        if (!stopped()) throw err;
      }
    }
  });
}

/** Every (SNS Message body) on the queue, by `messageId|eventType`, until `done()` or the deadline. */
async function drainUntil(received: Map<string, Set<string>>, done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) {
    const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    const messages = out.Messages ?? [];
    for (const m of messages) {
      const body = (JSON.parse(m.Body ?? '{}') as { Message?: string }).Message ?? '';
      const event = JSON.parse(body) as { eventType: string; mail: { messageId: string } };
      const key = `${event.mail.messageId}|${event.eventType}`;
      const set = received.get(key) ?? new Set<string>();
      set.add(body);
      received.set(key, set);
    }
    if (messages.length > 0) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
    }
  }
}

it('keeps every answered message and publishes every owed event at least once across SIGKILLs mid-burst', async () => {
  const began = Date.now();
  const answered = new Map<string, string[]>();
  let republished = 0;

  for (let round = 0; round < ROUNDS; round++) {
    const child = await start(round % 2 === 0 ? 20 : 400);
    const ses = client(child);
    if (round === 0) {
      await ses.send(new CreateConfigurationSetCommand({ ConfigurationSetName: SET }));
      await ses.send(
        new CreateConfigurationSetEventDestinationCommand({
          ConfigurationSetName: SET,
          EventDestinationName: 'all',
          EventDestination: {
            Enabled: true,
            MatchingEventTypes: ['SEND', 'DELIVERY', 'BOUNCE', 'COMPLAINT'],
            SnsDestination: { TopicArn: topicArn },
          },
        }),
      );
    }
    const before = answered.size;
    let stopped = false;
    const workers = burst(ses, answered, () => stopped, round);
    // The kill lands at a random moment once the burst is answering.
    const deadline = Date.now() + 10_000;
    while (answered.size === before && Date.now() < deadline) await sleep(5);
    await sleep(Math.floor(Math.random() * 500));
    stopped = true;
    await sigkill(child);
    await Promise.all(workers);
    ses.destroy();
    const m = /re-publishing (\d+) owed event/.exec(child.output());
    if (m) republished += Number(m[1]);
    expect(answered.size).toBeGreaterThan(before);
  }

  // The last start: no kill; it must catch up on everything.
  const child = await start(20);
  const ses = client(child);
  const expected = new Map<string, number>();
  for (const [id, to] of answered) {
    for (const ev of plannedEvents(to)) expected.set(`${id}|${ev.type}`, (expected.get(`${id}|${ev.type}`) ?? 0) + 1);
  }
  const received = new Map<string, Set<string>>();
  const missing = (): string[] => [...expected].filter(([key, n]) => (received.get(key)?.size ?? 0) < n).map(([key]) => key);
  await drainUntil(received, () => missing().length === 0, 20_000);
  const m = /re-publishing (\d+) owed event/.exec(child.output());
  if (m) republished += Number(m[1]);

  // Every answered message is in the store.
  const res = await fetch(`http://127.0.0.1:${child.port}/_local/messages`);
  const stored = new Set(((await res.json()) as { messages: { id: string }[] }).messages.map((x) => x.id));
  const lost = [...answered.keys()].filter((id) => !stored.has(id));
  expect(lost).toEqual([]);

  // Every owed event arrived; duplicates (re-publishes) carry the same content, so no key has more
  // distinct bodies than events owed. (Events of messages accepted but killed before the answer
  // reached us may arrive too, as when an SES response is lost; they are not counted.)
  expect(missing()).toEqual([]);
  const differing = [...expected].filter(([key, n]) => received.get(key)?.size !== n).map(([key]) => key);
  expect(differing).toEqual([]);
  // The kills did leave owed events behind, so the recovery path was exercised.
  expect(republished).toBeGreaterThan(0);

  ses.destroy();
  await terminate(child);
  process.stdout.write(
    `ses kill test: ${ROUNDS} kills, ${answered.size} answered messages, ${[...expected.values()].reduce((a, b) => a + b, 0)} owed events all received, ${republished} events re-published after restarts, ${Date.now() - began} ms\n`,
  );
});
