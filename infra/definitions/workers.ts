/** The queue workers: one Lambda each, fed by its queue (an SQS event source), with its grants. */
import type { Grant } from './access';
import { SENDING_STACK, type Capability } from './capabilities';
import {
  consumes,
  mailBucketReadWrite,
  oneTimeSchedules,
  secretsKeyDecrypt,
  secretsKeyEncryptDecrypt,
  sendsTo,
  sesReadAccount,
  sesSendEmail,
  tableReadWrite,
} from './grants';
import type { QueueId } from './queues';

export interface WorkerDefinition {
  name: string;
  entry: string;
  queue: QueueId;
  batchSize: number;
  /**
   * Concurrent invocations the event source may run (Lambda's maximum concurrency, 2-1000; unset = no
   * cap). The local runtime handles this many batches at once (default 2), fed by one long-polling receiver.
   */
  maxConcurrency?: number;
  /** Lambda timeout; must stay below the queue's visibility timeout. */
  timeoutSeconds: number;
  /** Lambda memory (MB); unset: the functions' default (docs/deploy.md, "Memory sizing"). */
  memoryMb?: number;
  /** What its code builds (./capabilities.ts): the shared/services/ modules its handler composes. */
  capabilities: Capability[];
  grants: Grant[];
}

export const WORKERS: WorkerDefinition[] = [
  {
    name: 'send-email',
    entry: 'functions/workers/send-email/handler.ts',
    capabilities: [
      'platform',
      'access',
      'tenants',
      'domains',
      'emails',
      'delivery',
      'suppressions',
      'messaging',
      'blobs',
      'ses',
      'ses-pace',
      'secrets',
    ],
    queue: 'send',
    batchSize: 10,
    // Sends are paced to SES's send rate through a budget in the table (shared/adapters/store/ses-send-budget.ts):
    // more invocations only hold more emails. 10 x 10 records at ~0.1 s per SES call is ~1,000 sends a
    // second, above any SES rate the service is sold for; raise it with a higher SES quota (docs/deploy.md).
    maxConcurrency: 10,
    timeoutSeconds: 30,
    // Compose, DKIM-sign and send: ~14 ms of CPU per email, 10 per batch; half the delivery delay of 512 MB (docs/deploy.md).
    memoryMb: 1024,
    grants: [
      tableReadWrite,
      consumes('send'),
      // Reads bodies and attachments; deletes them once SES took a message whose content is not kept (docs/redaction.md).
      mailBucketReadWrite,
      sesSendEmail,
      // GetAccount: SES's MaxSendRate to pace sends to, and whether the account sends (a pause is held, not failed).
      sesReadAccount,
      // A held send (SES's rate, throttling, an account pause) goes back to the queue with a delay.
      sendsTo('send'),
      // DKIM-signs with the domain's key; signs links, sealing the first link key when there is none yet.
      secretsKeyEncryptDecrypt,
      // email.failed when SES refuses a message for good.
      sendsTo('webhookEvents'),
    ],
  },
  {
    name: 'ses-events',
    entry: 'functions/workers/ses-events/handler.ts',
    capabilities: ['platform', 'access', 'tenants', 'emails', 'suppressions', 'messaging'],
    queue: 'sesEvents',
    batchSize: 10,
    timeoutSeconds: 30,
    grants: [
      tableReadWrite,
      consumes('sesEvents'),
      // email.sent/delivered/bounced/... events.
      sendsTo('webhookEvents'),
    ],
  },
  {
    name: 'webhook-router',
    entry: 'functions/workers/webhook-router/handler.ts',
    capabilities: ['platform', 'tenants', 'emails', 'webhooks', 'messaging'],
    queue: 'webhookEvents',
    batchSize: 10,
    timeoutSeconds: 30,
    grants: [tableReadWrite, consumes('webhookEvents'), sendsTo('webhookDeliveries')],
  },
  {
    name: 'webhook-delivery',
    entry: 'functions/workers/webhook-delivery/handler.ts',
    capabilities: ['platform', 'webhooks', 'messaging', 'secrets'],
    queue: 'webhookDeliveries',
    // One delivery per invocation, many at once: a slow or dead endpoint (10 s timeout) holds one
    // invocation and never delays other endpoints or events.
    batchSize: 1,
    maxConcurrency: 20,
    timeoutSeconds: 30,
    grants: [tableReadWrite, consumes('webhookDeliveries'), sendsTo('webhookDeliveries'), secretsKeyDecrypt],
  },
  {
    // Inbound mail: parse (mailparser: shared/adapters/received-mail/parse-message.ts), record the MX listener's SPF, DKIM
    // and DMARC results, store the parts and the record, publish email.received. One message per
    // invocation: a message may be 40 MB. Its bundle is over 1 MiB (infra/functions.ts, BUNDLE_SIZE_EXCEPTIONS).
    name: 'inbound-email',
    entry: 'functions/workers/inbound-email/handler.ts',
    // The send core's (SENDING_STACK, mail-domains; never a schedule) for forward routes (docs/inbound.md, "Forwarding").
    capabilities: [...SENDING_STACK, 'inbound', 'deliverability', 'mail-domains', 'messaging', 'blobs', 'secrets'],
    queue: 'inbound',
    batchSize: 1,
    maxConcurrency: 20,
    timeoutSeconds: 120,
    // A 40 MB message in memory (the raw, then up to ~350 MB more while mailparser reads it: a 40 MB text
    // body, measured; an HTML one over 5 MB is not converted to text) and ~0.5-1.3 s of CPU to read it; a
    // typical message ~1 ms of parsing (docs/deploy.md, "Memory sizing").
    memoryMb: 1024,
    grants: [
      tableReadWrite,
      consumes('inbound'),
      // Reads the raw message, writes its parts (bodies, attachments) beside it; a forward's body, as a send's.
      mailBucketReadWrite,
      // email.received (and a forward's email.suppressed).
      sendsTo('webhookEvents'),
      // A forward's ARC seal: the domain's sealed DKIM key.
      secretsKeyDecrypt,
    ],
  },
  {
    // Automation runs (docs/automations.md, "Runs"): claims a run's step, does it (a condition, a send
    // through the send core, a delay or wait as a one-time schedule), records it. One message per run step.
    name: 'automation-steps',
    entry: 'functions/workers/automation-steps/handler.ts',
    capabilities: [...SENDING_STACK, 'suppressions', 'automations', 'mail-domains', 'messaging', 'blobs', 'schedules'],
    queue: 'automationSteps',
    batchSize: 10,
    maxConcurrency: 10,
    timeoutSeconds: 30,
    grants: [
      tableReadWrite,
      consumes('automationSteps'),
      // A send_email step stores large bodies as POST /emails does.
      mailBucketReadWrite,
      // Delays and wait timeouts: one-time schedules into the automation-steps queue.
      oneTimeSchedules,
      sendsTo('webhookEvents'),
    ],
  },
];
