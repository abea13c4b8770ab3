/**
 * The local Lambda runtime's SQS event source, against real fauxqs: batches, batchItemFailures,
 * redelivery after the visibility timeout, DLQ redrive after maxReceiveCount, a throwing handler.
 */
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { startFauxqs, type FauxqsServer } from 'fauxqs';
import { SqsPoller } from '#localstack/cloud/messaging/sqs-poller';
import { waitFor } from '../../support/wait';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

let fauxqs: FauxqsServer;
let sqs: SQSClient;
let counter = 0;

beforeAll(async () => {
  fauxqs = await startFauxqs({ port: 0, logger: false });
  sqs = new SQSClient({ endpoint: fauxqs.address, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
});
/**
 * Every poller a test started, stopped after the file's tests even when one failed (a running poller keeps Jest
 * alive). The tests run at once (`it.concurrent`: their waits on visibility and function timeouts overlap), each
 * on queues of its own, so each stops its own pollers where it needs them stopped and the rest stop here.
 */
const running: SqsPoller[] = [];
afterAll(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
  sqs.destroy();
  await fauxqs.stop();
});

function queueWithDlq(maxReceiveCount: number) {
  const name = `q${++counter}`;
  const dlq = fauxqs.createQueue(`${name}-dlq`);
  const queue = fauxqs.createQueue(name, {
    attributes: {
      VisibilityTimeout: '1',
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: String(maxReceiveCount) }),
    },
  });
  return { queue, dlq };
}

async function send(url: string, bodies: string[]) {
  await sqs.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: bodies.map((MessageBody, i) => ({ Id: String(i), MessageBody })) }));
}

/** Waits until `check` holds; a timeout names the check (its source unless told) and its last answer or error. */
async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = String(check)): Promise<void> {
  await waitFor(check, what, timeoutMs, 50);
}

async function depth(url: string): Promise<number> {
  const attributes = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return (
    Number(attributes.Attributes?.ApproximateNumberOfMessages ?? 0) +
    Number(attributes.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0)
  );
}

function poller(
  queue: { queueUrl: string; queueArn: string },
  handler: (event: SQSEvent) => Promise<any>,
  options: { concurrency?: number; timeoutSeconds?: number; log?: (line: string) => void; calls?: string[] } = {},
) {
  // Each SQS call the poller makes, by command name, when the test asks.
  const counted = options.calls
    ? ({
        send: (command: { constructor: { name: string } }, ...rest: unknown[]) => {
          options.calls!.push(command.constructor.name);
          return (sqs.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
        },
      } as unknown as typeof sqs)
    : sqs;
  const p = new SqsPoller({
    name: 'test',
    sqs: counted,
    queueUrl: queue.queueUrl,
    queueArn: queue.queueArn,
    handler,
    batchSize: 10,
    timeoutSeconds: options.timeoutSeconds ?? 5,
    concurrency: options.concurrency ?? 1,
    log: options.log ?? (() => undefined),
  });
  running.push(p);
  return p;
}

/**
 * Sends one message to a poller (two receive loops, function timeout `timeoutSeconds`) whose first call
 * hangs until the message is handed out again; answers each call's time and receive count.
 */
async function handedOutAgain(queue: { queueUrl: string; queueArn: string }, timeoutSeconds: number, what: string) {
  const calls: { at: number; receiveCount: string }[] = [];
  let release!: () => void;
  const hang = new Promise<void>((resolve) => (release = resolve));
  const p = poller(
    queue,
    async (event) => {
      calls.push(...event.Records.map((r) => ({ at: Date.now(), receiveCount: r.attributes.ApproximateReceiveCount })));
      if (calls.length === 1) await hang;
      return { batchItemFailures: [] };
    },
    { concurrency: 2, timeoutSeconds },
  );
  p.start();
  try {
    await send(queue.queueUrl, ['hung']);
    await waitUntil(() => calls.length === 2, 10_000, what);
    return calls;
  } finally {
    release();
  }
}

describe('SqsPoller', () => {
  it.concurrent('invokes the handler with SQSEvent records and deletes handled messages', async () => {
    const { queue } = queueWithDlq(3);
    const seen: SQSEvent['Records'] = [];
    const p = poller(queue, async (event) => {
      seen.push(...event.Records);
      return { batchItemFailures: [] };
    });
    p.start();
    await send(queue.queueUrl, ['a', 'b', 'c']);
    await waitUntil(() => seen.length === 3);
    await p.stop();
    expect(seen.map((r) => r.body).sort()).toEqual(['a', 'b', 'c']);
    expect(seen[0]).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: queue.queueArn,
      awsRegion: 'us-east-1',
      attributes: { ApproximateReceiveCount: '1' },
    });
    expect(await depth(queue.queueUrl)).toBe(0);
  });

  it.concurrent('redelivers only the failed records and moves them to the DLQ after maxReceiveCount', async () => {
    const { queue, dlq } = queueWithDlq(2);
    const attempts = new Map<string, number>();
    const p = poller(queue, async (event) => ({
      batchItemFailures: event.Records.filter((r) => {
        attempts.set(r.body, (attempts.get(r.body) ?? 0) + 1);
        return r.body === 'poison';
      }).map((r) => ({ itemIdentifier: r.messageId })),
    }));
    p.start();
    await send(queue.queueUrl, ['good', 'poison']);
    await waitUntil(async () => (await depth(dlq.queueUrl)) === 1);
    await p.stop();
    expect(attempts.get('good')).toBe(1);
    expect(attempts.get('poison')).toBe(2);
    const dead = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlq.queueUrl }));
    expect(dead.Messages?.[0]?.Body).toBe('poison');
    expect(await depth(queue.queueUrl)).toBe(0);
  });

  it.concurrent('keeps a running batch invisible past the visibility timeout (up to the function timeout), as AWS does', async () => {
    // Visibility 1 s, a handler that takes 3 s, and a second receive loop ready to take the message
    // again: it must not, until the batch is done (then it is deleted) or the function timeout is over.
    const { queue, dlq } = queueWithDlq(2);
    const received: string[] = [];
    const sqsCalls: string[] = [];
    const slow = poller(
      queue,
      async (event) => {
        received.push(...event.Records.map((r) => `${r.body} #${r.attributes.ApproximateReceiveCount}`));
        await new Promise((resolve) => setTimeout(resolve, 3000));
        return { batchItemFailures: [] };
      },
      { concurrency: 2, calls: sqsCalls },
    );
    slow.start();
    await send(queue.queueUrl, ['long']);
    await waitUntil(
      async () => received.length === 1 && (await depth(queue.queueUrl)) === 0,
      10_000,
      'the batch to be handled and deleted',
    );
    await slow.stop();
    expect(received).toEqual(['long #1']);
    expect(await depth(dlq.queueUrl)).toBe(0);
    // Kept invisible by the receive itself (its VisibilityTimeout): a handled batch costs no call of its own
    // beyond its delete (a ChangeMessageVisibilityBatch per batch was the local cloud's busiest SQS call).
    expect(sqsCalls.filter((name) => name !== 'ReceiveMessageCommand')).toEqual(['GetQueueAttributesCommand', 'DeleteMessageBatchCommand']);

    // Past its timeout (1 s here) a batch is no longer kept: Lambda would have stopped it.
    const { queue: other } = queueWithDlq(5);
    const calls = await handedOutAgain(other, 1, 'the message handed out again once the first call timed out');
    expect(calls.map((call) => call.receiveCount)).toEqual(['1', '2']);
  });

  it.concurrent('leaves a queue whose visibility covers the function timeout as it is: a hung batch is handed out again at the visibility timeout, not later', async () => {
    // Visibility 4 s, function timeout 3 s (as on AWS, where the visibility must be at least the timeout):
    // nothing to extend, so the message is received again 4 s after the first receive (an extension at
    // half the visibility would have hidden it until 6 s).
    const queue = fauxqs.createQueue(`q${++counter}`, { attributes: { VisibilityTimeout: '4' } });
    const [first, second] = await handedOutAgain(queue, 3, 'the message handed out again');
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(3900);
    expect(second!.at - first!.at).toBeLessThan(5500);
  });

  it.concurrent('fails an invocation still running at the function timeout: the batch is not deleted, comes back, and reaches the DLQ', async () => {
    // One receive loop and a handler that never returns: without the timeout the loop would wait for it forever.
    const { queue, dlq } = queueWithDlq(2);
    const calls: string[] = [];
    const logged: string[] = [];
    const hangs: (() => void)[] = [];
    const p = poller(
      queue,
      async (event) => {
        calls.push(...event.Records.map((r) => r.attributes.ApproximateReceiveCount));
        await new Promise<void>((resolve) => hangs.push(resolve));
      },
      { concurrency: 1, timeoutSeconds: 1, log: (line) => logged.push(line) },
    );
    p.start();
    try {
      await send(queue.queueUrl, ['slow']);
      await waitUntil(async () => (await depth(dlq.queueUrl)) === 1, 15_000, 'the timed-out message in the DLQ');
      expect(calls).toEqual(['1', '2']);
      expect(logged.filter((line) => /^test: \S+ \S+ Task timed out after 1\.\d\d seconds$/.test(line))).toHaveLength(2);
      expect(await depth(queue.queueUrl)).toBe(0);
    } finally {
      for (const release of hangs) release();
    }
  });

  it.concurrent('retries the whole batch when the handler throws', async () => {
    const { queue } = queueWithDlq(5);
    let calls = 0;
    const p = poller(queue, async (event) => {
      calls++;
      if (calls === 1) throw new Error('boom');
      expect(event.Records[0]!.attributes.ApproximateReceiveCount).toBe('2');
      return { batchItemFailures: [] };
    });
    p.start();
    await send(queue.queueUrl, ['x']);
    await waitUntil(() => calls >= 2);
    await waitUntil(async () => (await depth(queue.queueUrl)) === 0);
    await p.stop();
    expect(calls).toBe(2);
  });

  it.concurrent('runs up to its maximum concurrency of batches at once, never more, and each message once', async () => {
    const { queue } = queueWithDlq(5);
    let active = 0;
    let most = 0;
    const seen: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const p = poller(
      queue,
      async (event) => {
        active++;
        most = Math.max(most, active);
        seen.push(...event.Records.map((r) => r.body));
        await released;
        active--;
      },
      { concurrency: 3, timeoutSeconds: 10 },
    );
    p.start();
    for (let batch = 0; batch < 5; batch++)
      await send(
        queue.queueUrl,
        Array.from({ length: 10 }, (_, i) => `m${batch * 10 + i}`),
      );
    await waitUntil(() => active === 3);
    // Two batches are left on the queue while every slot is taken: nothing more is received meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(most).toBe(3);
    const attributes = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queue.queueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    expect(attributes.Attributes).toMatchObject({ ApproximateNumberOfMessages: '20', ApproximateNumberOfMessagesNotVisible: '30' });
    release();
    await waitUntil(async () => (await depth(queue.queueUrl)) === 0);
    expect(most).toBe(3);
    expect(seen.sort()).toEqual(Array.from({ length: 50 }, (_, i) => `m${i}`).sort());
  });

  it.concurrent('answers a message sent while it long-polls at once, and stops without waiting out the poll', async () => {
    // (The bounds are a quarter of the 20 s poll: what fails is waiting it out, not a slow machine.)
    const { queue } = queueWithDlq(5);
    const handled: number[] = [];
    const p = poller(queue, async () => void handled.push(Date.now()));
    p.start();
    // The receiver is waiting (up to 20 s) on an empty queue; a message sent now is handed out at once.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sent = Date.now();
    await send(queue.queueUrl, ['late']);
    await waitUntil(() => handled.length === 1, 10_000);
    // Not at the poll's end (20 s).
    expect(handled[0]! - sent).toBeLessThan(5_000);
    const stopping = Date.now();
    await p.stop();
    expect(Date.now() - stopping).toBeLessThan(5_000);
  });

  /** An SQS client that counts its receives: how many were sent, and the most under way at once. */
  function countingClient() {
    const client = new SQSClient({
      endpoint: fauxqs.address,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const counts = { sent: 0, underWay: 0, most: 0 };
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== 'ReceiveMessageCommand') return next(args);
        counts.sent++;
        counts.most = Math.max(counts.most, ++counts.underWay);
        try {
          return await next(args);
        } finally {
          counts.underWay--;
        }
      },
      { step: 'initialize', name: 'countReceives' },
    );
    return { client, counts };
  }

  it.concurrent('keeps one receive waiting per queue while idle, whatever its concurrency (one long poll, not one per slot)', async () => {
    const { queue } = queueWithDlq(5);
    const { client, counts } = countingClient();
    const p = new SqsPoller({
      name: 'idle',
      sqs: client,
      queueUrl: queue.queueUrl,
      queueArn: queue.queueArn,
      handler: async () => undefined,
      batchSize: 10,
      timeoutSeconds: 5,
      concurrency: 10,
      log: () => undefined,
    });
    running.push(p);
    p.start();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await p.stop();
    client.destroy();
    // Ten receive loops polling for a second each sent ~30 here.
    expect(counts.sent).toBe(1);
  });

  it.concurrent('adds receivers while messages keep coming (batches of one fill every slot), and they leave once the queue is empty', async () => {
    const { queue } = queueWithDlq(5);
    const { client, counts } = countingClient();
    let active = 0;
    let most = 0;
    const handled: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const p = new SqsPoller({
      name: 'burst',
      sqs: client,
      queueUrl: queue.queueUrl,
      queueArn: queue.queueArn,
      // Every handler holds its message until the gate opens: the slots fill however slow the machine is
      // (a handler of 100 ms let a loaded machine finish messages before the eighth receiver came).
      handler: async (event) => {
        most = Math.max(most, ++active);
        await gate;
        handled.push(...event.Records.map((r) => r.body));
        active--;
      },
      batchSize: 1,
      timeoutSeconds: 5,
      concurrency: 8,
      log: () => undefined,
    });
    running.push(p);
    for (let batch = 0; batch < 4; batch++)
      await send(
        queue.queueUrl,
        Array.from({ length: 10 }, (_, i) => `m${batch * 10 + i}`),
      );
    p.start();
    // Messages keep coming (each receive returns one): receivers are added until all eight slots hold one.
    await waitUntil(() => active === 8, 20_000, 'eight handlers running at once');
    open();
    await waitUntil(() => handled.length === 40);
    // More than one receive at once (one receiver would have them one after another), never past the slots.
    expect(counts.most).toBeGreaterThan(1);
    expect(counts.most).toBeLessThanOrEqual(8);
    expect(most).toBe(8);
    expect(handled.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `m${i}`).sort());
    // Drained: the added receivers have left, and only the long poll waits.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const settled = counts.sent;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(counts.sent).toBe(settled);
    expect(counts.underWay).toBe(1);
    await p.stop();
    client.destroy();
  });
});
