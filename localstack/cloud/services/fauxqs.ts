/**
 * fauxqs (SQS, SNS, S3) started in-process through its public `buildApp`, with stores the local cloud
 * builds and extends (../messaging/fauxqs-classes.ts): the messaging tap sees every change the journal keeps
 * (../messaging/messaging-tap.ts), SNS's deliveries are checked against the queues' policies
 * (../messaging/sns-delivery-gate.ts), and its S3 refuses presigned URLs as S3 does (expired, over 7 days,
 * tampered: ../s3/s3-request-gate.ts, docs/local-cloud/s3.md). Nothing of fauxqs is patched.
 *
 * The server offers what fauxqs's own `startFauxqs` server offers the deploy (createQueue, createTopic,
 * subscribe, createBucket, inspectQueue, stop), made the same way: queue URLs in the `sqs.<region>.<host>`
 * form (SDK clients use the endpoint, not the URL's host), ARNs in fauxqs's account (the local cloud's).
 */
import { LOCAL_ACCOUNT_ID, LOCAL_CREDENTIALS, LOCAL_REGION } from '../constants';
import { fauxqsClasses } from '../messaging/fauxqs-classes';
import { addMessagingHooks } from '../messaging/fauxqs-hooks';
import { createTapSpy, MessagingTap } from '../messaging/messaging-tap';
import { createCheckedSqsStore, SnsDeliveryGate } from '../messaging/sns-delivery-gate';
import type { LocalMessaging } from '../messaging/local-messaging';
import { createTrackedS3Store } from '../messaging/tracked-s3-store';
import { addS3RequestGate } from '../s3/s3-request-gate';

// fauxqs's own account and region (its DEFAULT_ACCOUNT_ID and DEFAULT_REGION) are the local cloud's: its ARNs are the
// ones the template's policies name (test/unit/emulators/fauxqs/extension-points.test.ts compares them).
const sqsArn = (name: string, region = LOCAL_REGION) => `arn:aws:sqs:${region}:${LOCAL_ACCOUNT_ID}:${name}`;
const topicArn = (name: string, region = LOCAL_REGION) => `arn:aws:sns:${region}:${LOCAL_ACCOUNT_ID}:${name}`;

export async function startFauxqsServer(options: { port: number; host: string }): Promise<LocalMessaging> {
  const [{ buildApp }, classes] = await Promise.all([import('fauxqs'), fauxqsClasses()]);
  const snsDeliveries = new SnsDeliveryGate();
  // The tap looks queues up in the store that hands the tap's spy to them: called only once the store exists.
  const tap = new MessagingTap((name) => sqs.getQueueByName(name));
  const sqs = createCheckedSqsStore(classes.SqsStore, snsDeliveries, createTapSpy(classes.MessageSpy, tap));
  const sns = new classes.SnsStore();
  const s3 = createTrackedS3Store(classes.S3Store, tap);
  const app = buildApp({ logger: false, host: options.host, stores: { sqsStore: sqs, snsStore: sns, s3Store: s3 } });
  addMessagingHooks(app, sqs, tap, snsDeliveries);
  const secretOf = (accessKeyId: string) => (accessKeyId === LOCAL_CREDENTIALS.accessKeyId ? LOCAL_CREDENTIALS.secretAccessKey : undefined);
  addS3RequestGate(app, { region: LOCAL_REGION, secretOf });
  const address = await app.listen({ port: options.port, host: '0.0.0.0' });
  const port = Number(new URL(address).port);
  return {
    port,
    address,
    tap,
    sqs,
    s3,
    snsDeliveries,
    createMessage: classes.SqsStore.createMessage,
    stop: () => app.close(),
    createQueue(name, opts) {
      const region = opts?.region ?? LOCAL_REGION;
      const queueUrl = sqs.buildQueueUrl(name, String(port), `127.0.0.1:${port}`, region);
      sqs.createQueue(name, queueUrl, sqsArn(name, region), opts?.attributes, opts?.tags);
      return { queueUrl, queueArn: sqsArn(name, region), queueName: name };
    },
    inspectQueue: (name) => sqs.inspectQueue(name),
    createTopic(name, opts) {
      return { topicArn: sns.createTopic(name, opts?.attributes, opts?.tags, opts?.region ?? LOCAL_REGION).arn };
    },
    subscribe(opts) {
      sns.subscribe(topicArn(opts.topic, opts.region), 'sqs', sqsArn(opts.queue, opts.region), opts.attributes);
    },
    createBucket(name) {
      s3.createBucket(name);
      return { bucketName: name };
    },
  };
}
