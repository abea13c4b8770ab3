/**
 * What the local cloud relies on in fauxqs, through its public extension points only (buildApp's stores, the
 * stores' spy, Fastify hooks on its app): against the real fauxqs, so an upgrade that changes any of it
 * fails here. The server's own queues and topics are fauxqs's (ARNs, URLs); the messaging tap sees every
 * enqueue with its delay, every delete, a redrive, a purge, and every object put and deleted; the local S3
 * store lists incomplete multipart uploads. And no file of localstack/ assigns to a prototype.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  PurgeQueueCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { startFauxqsServer } from '#localstack/cloud/services/fauxqs';
import type { LocalMessaging } from '#localstack/cloud/messaging/local-messaging';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from '#localstack/cloud/constants';
import type { MessagingObserver } from '#localstack/cloud/messaging/messaging-tap';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const ROOT = resolve(__dirname, '..', '..', '..', '..');

type Seen =
  | { op: 'enq'; queue: string; id: string; body: string; delayUntil?: number }
  | { op: 'del'; queue: string; id: string }
  | { op: 'purge'; queue: string }
  | { op: 'put'; bucket: string; key: string; body: string }
  | { op: 'rm'; bucket: string; key: string };

describe('fauxqs through its extension points', () => {
  let fauxqs: LocalMessaging;
  let sqs: SQSClient;
  let s3: S3Client;
  const seen: Seen[] = [];
  const observer: MessagingObserver = {
    enqueued: (queue, m) =>
      seen.push({ op: 'enq', queue, id: m.messageId, body: m.body, ...(m.delayUntil ? { delayUntil: m.delayUntil } : {}) }),
    deleted: (queue, id) => seen.push({ op: 'del', queue, id }),
    purged: (queue) => seen.push({ op: 'purge', queue }),
    objectPut: (bucket, key, object) => seen.push({ op: 'put', bucket, key, body: object.body.toString() }),
    objectDeleted: (bucket, key) => seen.push({ op: 'rm', bucket, key }),
  };

  beforeAll(async () => {
    fauxqs = await startFauxqsServer({ port: 0, host: 'localhost' });
    fauxqs.tap.observe(observer);
    const options = {
      endpoint: `http://127.0.0.1:${fauxqs.port}`,
      region: LOCAL_REGION,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    };
    sqs = new SQSClient(options);
    s3 = new S3Client({ ...options, forcePathStyle: true });
  });
  afterAll(async () => {
    fauxqs.tap.observe(null);
    sqs.destroy();
    s3.destroy();
    await fauxqs.stop();
  });
  beforeEach(() => {
    seen.length = 0;
  });

  it("makes queues as fauxqs's CreateQueue does: same ARN form, and fauxqs's account and region are the local cloud's", async () => {
    const made = fauxqs.createQueue('ep-made');
    const created = await sqs.send(new CreateQueueCommand({ QueueName: 'ep-created' }));
    const arnOf = async (url: string) =>
      (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn;
    expect(await arnOf(created.QueueUrl!)).toBe(`arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:ep-created`);
    expect(await arnOf(made.queueUrl)).toBe(made.queueArn);
    expect(made.queueArn).toBe(`arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:ep-made`);
  });

  it('tells the observer each enqueue with its delay by the time the answer comes, each delete, a redrive to the DLQ and a purge', async () => {
    const dlq = fauxqs.createQueue('ep-dlq');
    const queue = fauxqs.createQueue('ep-main', {
      attributes: { VisibilityTimeout: '0', RedrivePolicy: JSON.stringify({ maxReceiveCount: 1, deadLetterTargetArn: dlq.queueArn }) },
    });
    const before = Date.now();
    const delayed = await sqs.send(new SendMessageCommand({ QueueUrl: queue.queueUrl, MessageBody: 'later', DelaySeconds: 60 }));
    // Already told by the time the answer came back.
    expect(seen).toEqual([{ op: 'enq', queue: 'ep-main', id: delayed.MessageId, body: 'later', delayUntil: expect.any(Number) }]);
    const delayUntil = (seen[0] as { delayUntil: number }).delayUntil;
    expect(delayUntil).toBeGreaterThanOrEqual(before + 60_000);
    expect(delayUntil).toBeLessThanOrEqual(Date.now() + 60_000);

    const batch = await sqs.send(
      new SendMessageBatchCommand({ QueueUrl: queue.queueUrl, Entries: ['a', 'b', 'c'].map((body) => ({ Id: body, MessageBody: body })) }),
    );
    expect(seen.slice(1)).toEqual(
      batch.Successful!.map((entry, n) => ({ op: 'enq', queue: 'ep-main', id: entry.MessageId, body: 'abc'[n] })),
    );

    seen.length = 0;
    const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.queueUrl, MaxNumberOfMessages: 1 }));
    const first = received.Messages![0]!;
    await sqs.send(new DeleteMessageCommand({ QueueUrl: queue.queueUrl, ReceiptHandle: first.ReceiptHandle }));
    expect(seen).toEqual([{ op: 'del', queue: 'ep-main', id: first.MessageId }]);

    // Received once with a visibility of 0: the next receive moves it to the DLQ (maxReceiveCount 1).
    seen.length = 0;
    await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.queueUrl, MaxNumberOfMessages: 1 }));
    await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.queueUrl, MaxNumberOfMessages: 10 }));
    expect(seen).toContainEqual(expect.objectContaining({ op: 'enq', queue: 'ep-dlq' }));

    seen.length = 0;
    await sqs.send(new PurgeQueueCommand({ QueueUrl: queue.queueUrl }));
    expect(seen).toEqual([{ op: 'purge', queue: 'ep-main' }]);
  });

  it('tells the observer each object put (also by copy and multipart) and deleted, and lists incomplete multipart uploads', async () => {
    fauxqs.createBucket('ep-bucket');
    const Bucket = 'ep-bucket';
    await s3.send(new PutObjectCommand({ Bucket, Key: 'a.txt', Body: 'one' }));
    await s3.send(new CopyObjectCommand({ Bucket, Key: 'b.txt', CopySource: `${Bucket}/a.txt` }));
    await s3.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: [{ Key: 'a.txt' }] } }));
    expect(seen).toEqual([
      { op: 'put', bucket: Bucket, key: 'a.txt', body: 'one' },
      { op: 'put', bucket: Bucket, key: 'b.txt', body: 'one' },
      { op: 'rm', bucket: Bucket, key: 'a.txt' },
    ]);

    seen.length = 0;
    const kept = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key: 'big.bin' }));
    const dropped = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key: 'gone.bin' }));
    expect(fauxqs.s3.incompleteUploads().map((upload) => [upload.key, upload.uploadId])).toEqual([
      ['big.bin', kept.UploadId],
      ['gone.bin', dropped.UploadId],
    ]);
    const part = await s3.send(new UploadPartCommand({ Bucket, Key: 'big.bin', UploadId: kept.UploadId, PartNumber: 1, Body: 'parts' }));
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket,
        Key: 'big.bin',
        UploadId: kept.UploadId,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
      }),
    );
    await s3.send(new AbortMultipartUploadCommand({ Bucket, Key: 'gone.bin', UploadId: dropped.UploadId }));
    expect(seen).toEqual([{ op: 'put', bucket: Bucket, key: 'big.bin', body: 'parts' }]);
    expect(fauxqs.s3.incompleteUploads()).toEqual([]);
  });

  it("has no file of localstack/ assign to a prototype (a dependency's or any)", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
      );
    const all = files(join(ROOT, 'localstack'));
    expect(all.length).toBeGreaterThan(100);
    const assigning = /\.prototype(\.[\w$]+|\[[^\]]+\])\s*=(?!=)|Object\.(defineProperty|assign|setPrototypeOf)\(\s*[\w$.]+\.prototype\b/;
    expect(all.filter((file) => assigning.test(readFileSync(file, 'utf8'))).map((file) => file.slice(ROOT.length + 1))).toEqual([]);
    // The pattern finds what messaging-hooks.ts did before (a wrapper assigned to fauxqs's method).
    expect(assigning.test('proto[name] = function () {}; SqsQueue.prototype.enqueue = wrapped;')).toBe(true);
  });
});
