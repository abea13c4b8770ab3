/**
 * Two Fastify `preHandler` hooks on the app fauxqs's `buildApp` returns (the local cloud builds it:
 * ../services/fauxqs.ts): a hook calling `done` synchronously runs the route's handler in the same call
 * (Fastify's hook runner, https://fastify.dev/docs/latest/Reference/Hooks/#prehandler), and fauxqs's
 * routers run the action before their first await, so code around `done()` brackets the action.
 * - SNS Publish and PublishBatch run with the delivery gate up (./sns-delivery-gate.ts).
 * - SQS PurgeQueue is told to the messaging tap before it runs (fauxqs's purge has no spy event). SQS itself
 *   may delete messages sent during the purge's 60 seconds
 *   (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/API_PurgeQueue.html).
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { SqsStore } from './fauxqs-classes';
import type { MessagingTap } from './messaging-tap';
import type { SnsDeliveryGate } from './sns-delivery-gate';

/** A request as the hooks read it. */
export interface HookRequest {
  raw: IncomingMessage & { originalUrl?: string };
  method: string;
  headers: IncomingHttpHeaders;
  body?: unknown;
}

export interface HookReply {
  statusCode: number;
  code(status: number): HookReply;
  header(name: string, value: string): HookReply;
  send(body?: string): void;
}

/**
 * What the local cloud uses of the Fastify app fauxqs's `buildApp` returns (its declaration names Fastify's
 * types through a default import this project's settings do not resolve, so they are written out here).
 */
export interface FauxqsApp {
  addHook(name: 'onRequest' | 'preHandler', hook: (request: HookRequest, reply: HookReply, done: (error?: Error) => void) => void): unknown;
  addHook(
    name: 'onSend',
    hook: (request: HookRequest, reply: HookReply, payload: unknown, done: (error: Error | null, payload: unknown) => void) => void,
  ): unknown;
  listen(options: { port: number; host: string }): Promise<string>;
  close(): Promise<unknown>;
}

interface ActionBody {
  Action?: string;
  TopicArn?: string;
  QueueUrl?: string;
}

export function addMessagingHooks(app: FauxqsApp, sqs: SqsStore, tap: MessagingTap, gate: SnsDeliveryGate): void {
  app.addHook('preHandler', (request, _reply, done) => {
    const body = request.body as ActionBody | undefined;
    const form = String(request.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
    if (form && (body?.Action === 'Publish' || body?.Action === 'PublishBatch') && body.TopicArn) {
      gate.during(body.TopicArn, () => done());
      return;
    }
    if (request.headers['x-amz-target'] === 'AmazonSQS.PurgeQueue' && body?.QueueUrl) {
      const queue = sqs.getQueue(body.QueueUrl);
      if (queue) tap.purged(queue.name);
    }
    done();
  });
}
