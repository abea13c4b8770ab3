/**
 * Lambda's synchronous response limit, as the product sizes its answers against it. Every API answer
 * goes back through a synchronous invocation, which returns at most 6 MB
 * (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html); over it the invocation
 * fails and API Gateway HTTP API answers a bare `500 {"message":"Internal Server Error"}`
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-troubleshooting-lambda.html).
 *
 * Measured as Lambda measures (../../domain/lambda-payload.ts: escaped text, base64 binary). Endpoints whose answer can
 * grow (a received email's bodies and attachments, a dashboard page showing an email) choose links,
 * pages or truncation so they stay under RESPONSE_BODY_BUDGET_BYTES, and `responseWithinLambdaLimit()`
 * (in every group's frame) is the net under them: an answer still over it becomes the product's error
 * envelope, logged, instead of API Gateway's bare 500. docs/deploy.md "AWS limits" lists each endpoint.
 */
import type { MiddlewareHandler } from 'hono';
import { defaultIsContentTypeBinary } from 'hono/aws-lambda';
import { ResponseTooLargeError } from '../../domain/errors';
import { RESPONSE_BODY_BUDGET_BYTES, textPayloadBytes } from '../../domain/lambda-payload';
import { logError } from '../../lib/log';
import type { ApiEnv } from './env';
import { errorResponse } from './errors';
import { REQUEST_ID_HEADER } from './middleware/request-id';

/** Bytes a response body takes inside Lambda's serialized result: base64 when hono/aws-lambda (our handlers' adapter) sends it so, else escaped text. */
export function bodyPayloadBytes(body: Buffer, contentType: string | null): number {
  if (contentType && defaultIsContentTypeBinary(contentType)) return Math.ceil(body.length / 3) * 4;
  return textPayloadBytes(body.toString('utf8'));
}

/**
 * The net under every endpoint: measures the final answer as Lambda will and, when it is over
 * RESPONSE_BODY_BUDGET_BYTES, answers ResponseTooLargeError in the error envelope instead (and logs it:
 * an endpoint that reaches this has a size bug). Registered first in the frame, so it sees the answer
 * after the routes and the error handler made it.
 */
export function responseWithinLambdaLimit(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    await next();
    if (!c.res.body) return;
    const body = Buffer.from(await c.res.clone().arrayBuffer());
    // Escaping at most sextuples text and base64 adds a third: a small body cannot be over.
    if (body.length * 6 <= RESPONSE_BODY_BUDGET_BYTES) return;
    const bytes = bodyPayloadBytes(body, c.res.headers.get('content-type'));
    if (bytes <= RESPONSE_BODY_BUDGET_BYTES) return;
    const error = new ResponseTooLargeError(bytes, RESPONSE_BODY_BUDGET_BYTES);
    logError('response over the Lambda payload limit', error, { request_id: c.get('requestId'), path: c.req.path });
    const { status, body: envelope } = errorResponse(error);
    const requestIdHeader = c.res.headers.get(REQUEST_ID_HEADER);
    c.res = undefined; // drop the oversized answer's headers (content-disposition, content-length) too
    c.res = new Response(JSON.stringify(envelope), {
      status,
      headers: { 'content-type': 'application/json; charset=UTF-8', ...(requestIdHeader ? { [REQUEST_ID_HEADER]: requestIdHeader } : {}) },
    });
  };
}
