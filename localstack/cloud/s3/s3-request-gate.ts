/**
 * The local S3's front door: checks every request fauxqs receives with a presigned URL's query
 * parameters (./s3-presigned-url.ts) and answers S3's refusal itself, before fauxqs routes it.
 *
 * fauxqs 1.9.2 is a Fastify app it does not expose, so the gate is a Fastify `onRequest` hook added
 * through Fastify's `fastify.initialization` diagnostics channel, which publishes each instance as it is
 * created (https://fastify.dev/docs/latest/Reference/Hooks/#diagnostics-channel-hooks). fauxqs creates
 * its app synchronously inside startFauxqs(), so the channel is listened to for exactly that call: no
 * other Fastify instance of the process is touched, and a fauxqs upgrade that changes this fails loudly.
 *
 * SQS and SNS requests (POST / with a JSON or form body) carry no X-Amz-Signature in their URL: for them
 * the hook is one string test on the URL and nothing else.
 *
 * A presigned GET's `response-content-type`, `response-content-disposition`, ... query parameters set the
 * answer's headers, as S3's GetObject does (fauxqs ignores them): a second hook, `onSend`.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  checkPresignedRequest,
  isPresignedRequest,
  responseOverrides,
  type PresignedCheckOptions,
  type S3Refusal,
} from './s3-presigned-url';

interface FastifyReplyLike {
  code(status: number): FastifyReplyLike;
  header(name: string, value: string): FastifyReplyLike;
  send(body?: string): void;
}

type GateRequest = { raw: IncomingMessage & { originalUrl?: string }; method: string };

/** The part of a Fastify instance the gate uses (fauxqs's Fastify types are not ours to import). */
interface FastifyLike {
  addHook(name: 'onRequest', hook: (request: GateRequest, reply: FastifyReplyLike, done: (error?: Error) => void) => void): unknown;
  addHook(
    name: 'onSend',
    hook: (
      request: GateRequest,
      reply: FastifyReplyLike & { statusCode: number },
      payload: unknown,
      done: (error: Error | null, payload: unknown) => void,
    ) => void,
  ): unknown;
}

export interface S3GateOptions extends Omit<PresignedCheckOptions, 'now'> {
  /** The gate's clock (tests); default the real time, as S3 keeps it. */
  now?: () => Date;
}

const xmlEscape = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** S3's XML error body (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html#RESTErrorResponses). */
export function s3ErrorXml(refusal: S3Refusal, requestId: string): string {
  const elements: [string, string][] = [
    ['Code', refusal.code],
    ['Message', refusal.message],
    ...refusal.details,
    ['RequestId', requestId],
    ['HostId', randomBytes(24).toString('base64')],
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${elements.map(([name, value]) => `<${name}>${xmlEscape(value)}</${name}>`).join('')}</Error>`;
}

function addGate(app: FastifyLike, options: S3GateOptions): void {
  const now = options.now ?? (() => new Date());
  app.addHook('onRequest', (request, reply, done) => {
    // The URL as sent: fauxqs rewrites virtual-hosted-style URLs, but the signature covers the original.
    const url = request.raw.originalUrl ?? request.raw.url ?? '/';
    if (!isPresignedRequest(url)) return done();
    checkPresignedRequest(
      { method: request.method, url, headers: request.raw.headers },
      { region: options.region, secretOf: options.secretOf, now: now() },
    ).then(
      (refused) => {
        if (!refused) return done();
        const requestId = randomBytes(8).toString('hex').toUpperCase();
        const answer = reply.code(refused.status).header('x-amz-request-id', requestId).header('content-type', 'application/xml');
        // A HEAD answer has no body (S3 sends only the status).
        answer.send(request.method === 'HEAD' ? undefined : s3ErrorXml(refused, requestId));
      },
      (error: unknown) => done(error as Error),
    );
  });
  // A presigned GET's response-* parameters (checked above: they are signed) set its answer's headers.
  app.addHook('onSend', (request, reply, payload, done) => {
    const url = request.raw.originalUrl ?? request.raw.url ?? '/';
    if ((request.method === 'GET' || request.method === 'HEAD') && reply.statusCode < 300 && isPresignedRequest(url)) {
      for (const [name, value] of responseOverrides(url)) reply.header(name, value);
    }
    done(null, payload);
  });
}

/**
 * Runs `start` (which must create fauxqs's Fastify app synchronously, as startFauxqs does) with the gate
 * added to the app it creates.
 */
export function withS3RequestGate<T>(options: S3GateOptions, start: () => Promise<T>): Promise<T> {
  let gated = 0;
  // Added as the app is created, before fauxqs registers its routes: the hook covers every route.
  const onInit = (message: unknown) => {
    addGate((message as { fastify: FastifyLike }).fastify, options);
    gated++;
  };
  subscribe('fastify.initialization', onInit);
  let started: Promise<T>;
  try {
    started = start();
  } finally {
    unsubscribe('fastify.initialization', onInit);
  }
  if (gated !== 1) {
    started.catch(() => undefined);
    throw new Error(
      `fauxqs created ${gated} Fastify apps during its start, expected 1: localstack/cloud/s3/s3-request-gate.ts must follow its upgrade`,
    );
  }
  return started;
}
