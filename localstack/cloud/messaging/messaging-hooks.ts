/**
 * Hooks into fauxqs 1.9.2's stores so the local cloud can journal what its SQS queues and S3 buckets
 * hold (localstack/cloud/messaging/messaging-journal.ts). fauxqs keeps everything in memory and has no hook for
 * this, so the prototypes of its SqsQueue, SqsStore and S3Store are wrapped once per process: each
 * wrapper calls the original, then tells the observer what changed, synchronously, so the change is
 * journaled before fauxqs answers the request that made it. `assertFauxqsShape` fails loudly if a
 * fauxqs upgrade renames what is wrapped (test/unit/emulators/fauxqs/journal.test.ts calls it).
 *
 * They also let the local cloud authorize SNS's deliveries to SQS as AWS does (`authorizeSnsDeliveries`,
 * ../iam/service-deliveries.ts): fauxqs fans a Publish out to its subscribed queues inside the Publish request,
 * looking each queue up by ARN (SqsStore.getQueueByArn); while a Publish runs, a queue whose policy refuses
 * the topic is not found, so fauxqs skips that subscription as it skips a deleted queue: the message is
 * lost for it, as on AWS (https://docs.aws.amazon.com/sns/latest/dg/sns-message-delivery-retries.html).
 *
 * The modules are loaded by file URL: the same URL app.js imports, so the same classes it uses.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A message as fauxqs keeps it (the fields the journal needs). */
export interface FauxqsMessage {
  messageId: string;
  body: string;
  md5OfBody: string;
  messageAttributes: Record<string, unknown>;
  md5OfMessageAttributes?: string;
  sentTimestamp: number;
  approximateReceiveCount: number;
  delayUntil?: number;
  messageGroupId?: string;
  messageDeduplicationId?: string;
}

export interface FauxqsQueue {
  name: string;
  enqueue(message: FauxqsMessage): void;
  inflightMessages: Map<string, { message: FauxqsMessage }>;
}

export interface FauxqsObject {
  body: Buffer;
  contentType: string;
  metadata: Record<string, string>;
}

export interface FauxqsS3Store {
  putObject(bucket: string, key: string, body: Buffer, contentType?: string, metadata?: Record<string, string>): FauxqsObject;
  buckets: Map<string, Map<string, FauxqsObject>>;
}

export interface MessagingObserver {
  enqueued(queue: string, message: FauxqsMessage): void;
  deleted(queue: string, messageId: string): void;
  purged(queue: string): void;
  objectPut(bucket: string, key: string, object: FauxqsObject): void;
  objectDeleted(bucket: string, key: string): void;
}

let observer: MessagingObserver | null = null;
/** Changes made while restoring are the journal's own: not observed. */
let suspended = false;
const queues = new Map<string, FauxqsQueue>();
let s3Store: FauxqsS3Store | undefined;
let installed: Promise<void> | undefined;
/** The topic of the Publish/PublishBatch fauxqs is fanning out now (fauxqs's publish is synchronous). */
let publishingTopic: string | undefined;
/** Decides each SNS delivery to a queue while set: true, or why SNS may not deliver. */
export type SnsDeliveryCheck = (topicArn: string, queueArn: string) => true | string;
let snsDeliveryCheck: { check: SnsDeliveryCheck; log: (message: string) => void } | null = null;

const notify = (action: (o: MessagingObserver) => void) => {
  if (observer && !suspended) action(observer);
};

function distDir(): string {
  // The package's exports map hides dist/ (and package.json) from specifiers, not from file URLs.
  return join(resolve(__dirname, '..', '..', '..'), 'node_modules', 'fauxqs', 'dist');
}

/** A method of a fauxqs class, as the hooks call and replace it. */
type Method = (this: unknown, ...args: unknown[]) => unknown;
type Prototype = Record<string, Method>;

/** What the hooks read of fauxqs's SqsStore and S3Store beyond their methods (fields its types do not publish). */
interface FauxqsSqsStoreFields {
  queuesByName?: Map<string, FauxqsQueue>;
}
interface FauxqsS3StoreFields extends FauxqsS3Store {
  multipartUploads?: Map<string, { bucket: string; key: string }>;
}

type Classes = Record<'SqsQueue' | 'SqsStore' | 'S3Store' | 'SnsRouter', { prototype: Prototype }>;

async function load(): Promise<Classes> {
  const dist = distDir();
  const sqs = (await import(pathToFileURL(join(dist, 'sqs', 'sqsStore.js')).href)) as Pick<Classes, 'SqsQueue' | 'SqsStore'>;
  const s3 = (await import(pathToFileURL(join(dist, 's3', 's3Store.js')).href)) as Pick<Classes, 'S3Store'>;
  const sns = (await import(pathToFileURL(join(dist, 'sns', 'snsRouter.js')).href)) as Pick<Classes, 'SnsRouter'>;
  return { SqsQueue: sqs.SqsQueue, SqsStore: sqs.SqsStore, S3Store: s3.S3Store, SnsRouter: sns.SnsRouter };
}

/** Throws when fauxqs no longer has what these hooks wrap (an upgrade changed its internals). */
export async function assertFauxqsShape(): Promise<void> {
  const { SqsQueue, SqsStore, S3Store, SnsRouter } = await load();
  const missing = [
    ...['enqueue', 'deleteMessage', 'purge']
      .filter((name) => typeof SqsQueue.prototype[name] !== 'function')
      .map((name) => `SqsQueue.${name}`),
    ...['handle'].filter((name) => typeof SnsRouter.prototype[name] !== 'function').map((name) => `SnsRouter.${name}`),
    ...['createQueue', 'getQueueByArn'].filter((name) => typeof SqsStore.prototype[name] !== 'function').map((name) => `SqsStore.${name}`),
    ...['createBucket', 'putObject', 'deleteObject', 'completeMultipartUpload']
      .filter((name) => typeof S3Store.prototype[name] !== 'function')
      .map((name) => `S3Store.${name}`),
  ];
  if (missing.length)
    throw new Error(`fauxqs changed: ${missing.join(', ')} missing; localstack/cloud/messaging/messaging-hooks.ts must follow`);
}

function install(): Promise<void> {
  installed ??= (async () => {
    await assertFauxqsShape();
    const { SqsQueue, SqsStore, S3Store, SnsRouter } = await load();
    // `this`, the arguments and the result as the wrapped fauxqs method has them (fauxqs publishes no types for these internals).
    const wrap = <Self, Args extends unknown[], Result, Before = undefined>(
      proto: Prototype,
      name: string,
      after: (self: Self, args: Args, result: Result, before: Before) => void,
      beforeHook?: (self: Self, args: Args) => Before,
    ) => {
      const original = proto[name]!;
      proto[name] = function (this: unknown, ...args: unknown[]) {
        const before = beforeHook?.(this as Self, args as Args);
        const result = original.apply(this, args);
        after(this as Self, args as Args, result as Result, before as Before);
        return result;
      };
    };
    wrap(SqsStore.prototype, 'createQueue', (store: FauxqsSqsStoreFields, [name]: [string]) => {
      const queue = store.queuesByName?.get(name);
      if (queue) queues.set(name, queue);
    });
    wrapSnsDeliveries(SnsRouter.prototype, SqsStore.prototype);
    wrap(SqsQueue.prototype, 'enqueue', (queue: FauxqsQueue, [message]: [FauxqsMessage]) => notify((o) => o.enqueued(queue.name, message)));
    wrap(
      SqsQueue.prototype,
      'deleteMessage',
      (queue: FauxqsQueue, _args: [string], deleted: unknown, messageId: string | undefined) => {
        if (deleted && messageId) notify((o) => o.deleted(queue.name, messageId));
      },
      (queue, [receiptHandle]) => queue.inflightMessages.get(receiptHandle)?.message.messageId,
    );
    wrap(SqsQueue.prototype, 'purge', (queue: FauxqsQueue) => notify((o) => o.purged(queue.name)));
    wrap(S3Store.prototype, 'createBucket', (store: FauxqsS3StoreFields) => {
      s3Store = store;
    });
    wrap(S3Store.prototype, 'putObject', (_store: unknown, [bucket, key]: [string, string], object: FauxqsObject) =>
      notify((o) => o.objectPut(bucket, key, object)),
    );
    wrap(S3Store.prototype, 'deleteObject', (_store: unknown, [bucket, key]: [string, string]) =>
      notify((o) => o.objectDeleted(bucket, key)),
    );
    wrap(
      S3Store.prototype,
      'completeMultipartUpload',
      (
        _store: FauxqsS3StoreFields,
        _args: [string],
        object: FauxqsObject | undefined,
        upload: { bucket: string; key: string } | undefined,
      ) => {
        // The assembled object goes straight into the bucket's map (not through putObject).
        if (upload && object) notify((o) => o.objectPut(upload.bucket, upload.key, object));
      },
      (store, [uploadId]) => store.multipartUploads?.get(uploadId),
    );
  })();
  return installed;
}

/**
 * SnsRouter.handle runs the action's handler before its first await, and fauxqs's publish and publishBatch
 * are synchronous: the fan-out happens inside the call, with `publishingTopic` set. getQueueByArn answers
 * "no such queue" for a delivery the check refuses (and only during a Publish: SQS's own calls are IAM's).
 */
function wrapSnsDeliveries(router: Prototype, sqsStore: Prototype): void {
  const handle = router.handle!;
  router.handle = function (this: unknown, ...args: unknown[]) {
    const body = (args[0] as { body?: { Action?: string; TopicArn?: string } } | undefined)?.body;
    if (body?.Action !== 'Publish' && body?.Action !== 'PublishBatch') return handle.apply(this, args);
    publishingTopic = body.TopicArn;
    try {
      return handle.apply(this, args);
    } finally {
      publishingTopic = undefined;
    }
  };
  const getQueueByArn = sqsStore.getQueueByArn!;
  sqsStore.getQueueByArn = function (this: unknown, ...args: unknown[]) {
    const arn = args[0] as string;
    const queue = getQueueByArn.call(this, arn);
    if (!queue || !publishingTopic || !snsDeliveryCheck) return queue;
    const verdict = snsDeliveryCheck.check(publishingTopic, arn);
    if (verdict === true) return queue;
    snsDeliveryCheck.log(`sns: dropped a message of ${publishingTopic} for its subscription ${arn}: ${verdict}`);
    return undefined;
  };
}

/** Checks every SNS delivery to a queue from now on (null: deliver all, fauxqs's own behaviour). */
export async function authorizeSnsDeliveries(
  check: SnsDeliveryCheck | null,
  log: (message: string) => void = () => undefined,
): Promise<void> {
  await install();
  snsDeliveryCheck = check ? { check, log } : null;
}

/**
 * Installs the hooks (once) without observing: call before fauxqs creates its buckets so currentS3Store()
 * finds its S3 store (the lifecycle sweep, ../s3/s3-lifecycle-sweep.ts, works on it in every mode).
 */
export const installFauxqsHooks = (): Promise<void> => install();

/** Installs the hooks (once) and routes changes to `next` (null: stop observing). */
export async function observeMessaging(next: MessagingObserver | null): Promise<void> {
  await install();
  observer = next;
}

/** Runs `restore` without observing its changes (the journal replaying itself). */
export function withoutObserving<T>(restore: () => T): T {
  suspended = true;
  try {
    return restore();
  } finally {
    suspended = false;
  }
}

/** The queues created in this process, by name (the journal restores messages into them). */
export const queueByName = (name: string): FauxqsQueue | undefined => queues.get(name);
export const currentS3Store = (): FauxqsS3Store | undefined => s3Store;
