/**
 * fauxqs keeps queues and objects in memory only. So that `npm start` keeps queued work and stored
 * bodies across a clean restart, the local cloud snapshots queue messages and bucket objects to
 * DATA_DIR/messaging.json on stop and restores them on start. (A crash loses in-flight messages;
 * emails stay in DynamoDB.)
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { FauxqsServer } from 'fauxqs';
import { BUCKETS, QUEUES } from '../../infra/definitions';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './constants';

interface Snapshot {
  queues: Record<string, { body: string; delaySeconds: number }[]>;
  objects: Record<string, { key: string; contentType?: string; base64: string }[]>;
}

const queueNames = () => Object.values(QUEUES).flatMap((q) => [q.name, q.dlqName]);

function s3For(fauxqs: FauxqsServer): S3Client {
  return new S3Client({ region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, endpoint: `http://127.0.0.1:${fauxqs.port}`, forcePathStyle: true });
}

export async function snapshotMessaging(fauxqs: FauxqsServer, path: string): Promise<void> {
  const snapshot: Snapshot = { queues: {}, objects: {} };
  const now = Date.now();
  for (const name of queueNames()) {
    const state = fauxqs.inspectQueue(name);
    if (!state) continue;
    const all = [...state.messages.ready, ...state.messages.delayed, ...state.messages.inflight.map((entry) => entry.message)];
    snapshot.queues[name] = all.map((message) => ({
      body: message.body,
      delaySeconds: message.delayUntil && message.delayUntil > now ? Math.min(900, Math.ceil((message.delayUntil - now) / 1000)) : 0,
    }));
  }
  const s3 = s3For(fauxqs);
  try {
    for (const bucket of Object.values(BUCKETS)) {
      const objects: Snapshot['objects'][string] = [];
      let token: string | undefined;
      do {
        const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket.name, ContinuationToken: token }));
        for (const item of page.Contents ?? []) {
          if (!item.Key) continue;
          const object = await s3.send(new GetObjectCommand({ Bucket: bucket.name, Key: item.Key }));
          const bytes = Buffer.from((await object.Body?.transformToByteArray()) ?? []);
          objects.push({ key: item.Key, contentType: object.ContentType, base64: bytes.toString('base64') });
        }
        token = page.NextContinuationToken;
      } while (token);
      snapshot.objects[bucket.name] = objects;
    }
  } finally {
    s3.destroy();
  }
  writeFileSync(`${path}.tmp`, JSON.stringify(snapshot));
  renameSync(`${path}.tmp`, path);
}

export async function restoreMessaging(fauxqs: FauxqsServer, sqs: SQSClient, path: string, log: (message: string) => void): Promise<void> {
  if (!existsSync(path)) return;
  const snapshot = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  let messages = 0;
  let objects = 0;
  for (const [name, entries] of Object.entries(snapshot.queues)) {
    const state = fauxqs.inspectQueue(name);
    if (!state) continue;
    for (const entry of entries) {
      await sqs.send(new SendMessageCommand({ QueueUrl: state.url, MessageBody: entry.body, DelaySeconds: entry.delaySeconds }));
      messages++;
    }
  }
  const s3 = s3For(fauxqs);
  try {
    for (const [bucket, entries] of Object.entries(snapshot.objects)) {
      for (const entry of entries) {
        await s3.send(new PutObjectCommand({ Bucket: bucket, Key: entry.key, Body: Buffer.from(entry.base64, 'base64'), ContentType: entry.contentType }));
        objects++;
      }
    }
  } finally {
    s3.destroy();
  }
  // Restored once: a crash after this point must not replay the same messages again.
  rmSync(path, { force: true });
  if (messages || objects) log(`restored ${messages} queued messages and ${objects} stored objects`);
}
