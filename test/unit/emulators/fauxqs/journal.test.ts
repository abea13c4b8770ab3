/**
 * The local cloud's SQS/S3 journal (localstack/cloud/messaging/messaging-journal.ts) against real fauxqs in a child
 * process killed with SIGKILL mid-burst: every acknowledged message survives exactly once unless it was
 * deleted, a message redriven to the DLQ is only in the DLQ, delays survive, objects come back byte for
 * byte; a torn last line is ignored; a clean stop compacts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  DeleteMessageCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { bundledChild } from '#test/support/bundled-child';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const ROOT = resolve(__dirname, '..', '..', '..', '..');
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

interface Child {
  process: ChildProcess;
  port: number;
  restored: { messages: number; objects: number };
}

async function startChild(dataDir: string): Promise<Child> {
  // A bundle of the script run by this very process (the tsx CLI would run it in a grandchild a SIGKILL misses).
  const child = spawn(process.execPath, [await bundledChild(join(__dirname, 'journal-child.ts'))], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolveChild, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /ready (\d+) (\d+) (\d+)/.exec(out);
      if (ready)
        resolveChild({ process: child, port: Number(ready[1]), restored: { messages: Number(ready[2]), objects: Number(ready[3]) } });
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`child exited ${code}: ${out}`)));
  });
}

const kill = (child: Child) =>
  new Promise<void>((resolveKill) => {
    child.process.removeAllListeners('exit');
    child.process.once('exit', () => resolveKill());
    child.process.kill('SIGKILL');
  });

function clients(port: number) {
  const endpoint = `http://127.0.0.1:${port}`;
  const options = { endpoint, region: 'us-east-1', credentials, maxAttempts: 1 };
  return { sqs: new SQSClient(options), sns: new SNSClient(options), s3: new S3Client({ ...options, forcePathStyle: true }) };
}

async function queueUrl(sqs: SQSClient, name: string) {
  return (await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl!;
}

/** Every message of a queue (visible now), deleted as read, by body. */
async function drain(sqs: SQSClient, name: string): Promise<string[]> {
  const url = await queueUrl(sqs, name);
  const bodies: string[] = [];
  for (;;) {
    const page = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 30 }),
    );
    if (!page.Messages?.length) return bodies;
    for (const message of page.Messages) {
      bodies.push(message.Body!);
      await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle! }));
    }
  }
}

describe('messaging journal', () => {
  const dirs: string[] = [];
  const children: Child[] = [];
  const dir = () => {
    const made = mkdtempSync(join(tmpdir(), 'fauxqs-journal-'));
    dirs.push(made);
    return made;
  };
  afterAll(async () => {
    for (const child of children) if (child.process.exitCode === null && child.process.signalCode === null) await kill(child);
    for (const made of dirs) rmSync(made, { recursive: true, force: true });
  });

  it('keeps every acknowledged message and object across SIGKILLs mid-burst, exactly once, deletes and DLQ moves included', async () => {
    const dataDir = dir();
    const expected = new Set<string>();
    const deleted = new Set<string>();
    const objects = new Map<string, Buffer>();
    let dlqBody: string | undefined;
    for (let round = 0; round < 3; round++) {
      const child = await startChild(dataDir);
      children.push(child);
      const { sqs, sns, s3 } = clients(child.port);
      const url = await queueUrl(sqs, 'kill-main');
      if (round === 0) {
        // One message redriven to the DLQ: received twice past maxReceiveCount 1.
        dlqBody = 'to-the-dlq';
        await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: dlqBody }));
        await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }));
        await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }));
        // One deleted after being received.
        await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: `r${round}-deleted` }));
        const got = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 30 }));
        for (const message of got.Messages ?? []) {
          if (message.Body === `r${round}-deleted`) {
            await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle! }));
            deleted.add(message.Body);
          }
        }
        // Objects: a PutObject and a presigned PUT.
        const bytes = randomBytes(70_000);
        await s3.send(new PutObjectCommand({ Bucket: 'kill-bucket', Key: 'a/plain.bin', Body: bytes }));
        objects.set('a/plain.bin', bytes);
        const signed = await getSignedUrl(s3, new PutObjectCommand({ Bucket: 'kill-bucket', Key: 'uploads/presigned.bin' }), {
          expiresIn: 60,
        });
        const uploaded = randomBytes(1234);
        expect((await fetch(signed, { method: 'PUT', body: uploaded })).status).toBe(200);
        objects.set('uploads/presigned.bin', uploaded);
      }
      // The burst: single sends, batches and SNS publishes, acknowledgements recorded, killed at a random point.
      let bursting = true;
      let n = 0;
      const loop = async (kind: number) => {
        while (bursting) {
          const id = `r${round}-${kind}-${n++}`;
          try {
            if (kind === 0) {
              await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: id, DelaySeconds: n % 5 === 0 ? 1 : 0 }));
              expected.add(id);
            } else if (kind === 1) {
              const result = await sqs.send(
                new SendMessageBatchCommand({ QueueUrl: url, Entries: [0, 1].map((i) => ({ Id: String(i), MessageBody: `${id}-${i}` })) }),
              );
              for (const ok of result.Successful ?? []) expected.add(`${id}-${ok.Id}`);
            } else {
              await sns.send(new PublishCommand({ TopicArn: 'arn:aws:sns:us-east-1:000000000000:kill-topic', Message: id }));
              expected.add(id);
            }
          } catch {
            return; // killed under this request: not acknowledged
          }
        }
      };
      const loops = [0, 1, 2, 0].map(loop);
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 400));
      await kill(child);
      bursting = false;
      await Promise.all(loops);
      for (const client of [sqs, sns, s3]) client.destroy();
    }
    const child = await startChild(dataDir);
    children.push(child);
    const { sqs, s3 } = clients(child.port);
    await new Promise((r) => setTimeout(r, 1100)); // delayed messages become visible
    const bodies = await drain(sqs, 'kill-main');
    const counts = new Map<string, number>();
    for (const body of bodies) counts.set(body, (counts.get(body) ?? 0) + 1);
    expect([...expected].filter((id) => counts.get(id) !== 1)).toEqual([]);
    expect(bodies.filter((body) => deleted.has(body))).toEqual([]);
    expect(bodies).not.toContain(dlqBody);
    expect(await drain(sqs, 'kill-dlq')).toEqual([dlqBody]);
    for (const [key, bytes] of objects) {
      const object = await s3.send(new GetObjectCommand({ Bucket: 'kill-bucket', Key: key }));
      expect(Buffer.from(await object.Body!.transformToByteArray()).equals(bytes)).toBe(true);
    }
    expect(expected.size).toBeGreaterThan(20);
    sqs.destroy();
    s3.destroy();
    await kill(child);
  }, 60_000);

  it('ignores a torn last line and compacts on a clean stop', async () => {
    const dataDir = dir();
    let child = await startChild(dataDir);
    children.push(child);
    let { sqs } = clients(child.port);
    const url = await queueUrl(sqs, 'kill-main');
    for (let i = 0; i < 5; i++) await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: `m${i}` }));
    sqs.destroy();
    await kill(child);
    appendFileSync(join(dataDir, 'journal.jsonl'), '{"s":999,"op":"enq","q":"kill-main","m":{"id":"torn","bo');
    child = await startChild(dataDir);
    children.push(child);
    expect(child.restored.messages).toBe(5);
    // Restoring compacted: the journal is empty, the snapshot holds the five.
    expect(readFileSync(join(dataDir, 'journal.jsonl'), 'utf8')).toBe('');
    expect(JSON.parse(readFileSync(join(dataDir, 'snapshot.json'), 'utf8')).queues['kill-main']).toHaveLength(5);
    sqs.destroy();
    ({ sqs } = clients(child.port));
    await sqs.send(new SendMessageCommand({ QueueUrl: await queueUrl(sqs, 'kill-main'), MessageBody: 'm5' }));
    sqs.destroy();
    child.process.kill('SIGTERM');
    await new Promise((r) => child.process.once('exit', r));
    expect(readFileSync(join(dataDir, 'journal.jsonl'), 'utf8')).toBe('');
    expect(JSON.parse(readFileSync(join(dataDir, 'snapshot.json'), 'utf8')).queues['kill-main']).toHaveLength(6);
    expect(existsSync(join(dataDir, 'objects'))).toBe(true);
  }, 30_000);
});
