/**
 * The local cloud's SQS, SNS and S3 server (fauxqs, started by ../services/fauxqs.ts) as the rest of the
 * local cloud sees it: what fauxqs's own `startFauxqs` server offers the deploy, and the extension points
 * the journal, the IAM install and the lifecycle sweep use.
 */
import type { FauxqsServer } from 'fauxqs';
import type { FauxqsClasses, SqsStore } from './fauxqs-classes';
import type { MessagingTap } from './messaging-tap';
import type { SnsDeliveryGate } from './sns-delivery-gate';
import type { TrackedS3Store } from './tracked-s3-store';

export interface LocalMessaging
  extends Pick<FauxqsServer, 'port' | 'address' | 'stop' | 'createQueue' | 'inspectQueue' | 'createTopic' | 'subscribe' | 'createBucket'> {
  /** What changes in the queues and buckets (the journal observes it). */
  readonly tap: MessagingTap;
  readonly sqs: SqsStore;
  readonly s3: TrackedS3Store;
  /** SNS's deliveries to SQS, checked once IAM is installed (../iam/local-iam.ts). */
  readonly snsDeliveries: SnsDeliveryGate;
  /** A message as fauxqs makes one (its MD5s), for the journal's restore. */
  readonly createMessage: FauxqsClasses['SqsStore']['createMessage'];
}
