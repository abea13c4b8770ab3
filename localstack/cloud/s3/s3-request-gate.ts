/**
 * The local S3's front door: checks every request fauxqs receives with a presigned URL's query
 * parameters (./s3-presigned-url.ts) and answers S3's refusal itself, before fauxqs routes it: a Fastify
 * `onRequest` hook on the app fauxqs's `buildApp` returns (the local cloud builds it:
 * ../services/fauxqs.ts; https://fastify.dev/docs/latest/Reference/Hooks/#onrequest).
 *
 * SQS and SNS requests (POST / with a JSON or form body) carry no X-Amz-Signature in their URL: for them
 * the hook is one string test on the URL and nothing else.
 *
 * A presigned GET's `response-content-type`, `response-content-disposition`, ... query parameters set the
 * answer's headers, as S3's GetObject does (fauxqs ignores them): a second hook, `onSend`.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FauxqsApp } from '../messaging/fauxqs-hooks';
import {
  checkPresignedRequest,
  isPresignedRequest,
  responseOverrides,
  type PresignedCheckOptions,
  type S3Refusal,
} from './s3-presigned-url';

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

/** The URL as sent: fauxqs rewrites virtual-hosted-style URLs, but the signature covers the original. */
const sentUrl = (raw: IncomingMessage & { originalUrl?: string }) => raw.originalUrl ?? raw.url ?? '/';

/** Adds the gate to fauxqs's app (before it listens). */
export function addS3RequestGate(app: FauxqsApp, options: S3GateOptions): void {
  const now = options.now ?? (() => new Date());
  app.addHook('onRequest', (request, reply, done) => {
    const url = sentUrl(request.raw);
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
    const url = sentUrl(request.raw);
    if ((request.method === 'GET' || request.method === 'HEAD') && reply.statusCode < 300 && isPresignedRequest(url)) {
      for (const [name, value] of responseOverrides(url)) reply.header(name, value);
    }
    done(null, payload);
  });
}
