/**
 * Postmark `POST /email`, `/email/batch`, `/email/withTemplate` and `/email/batchWithTemplates`
 * (docs/compat.md, "Postmark"): the official `postmark` SDK works unchanged but for its base URL and key.
 * Each route reads the key from X-Postmark-Server-Token and hands the body to ./send.ts; every error,
 * ours or the door's, is answered in Postmark's shape (./errors.ts), and so is any other path under
 * /email (404): the compat app has no error handler of its own, its doors each answer their own.
 */
import type { Context, Hono } from 'hono';
import { logError } from '#shared/lib/log';
import type { ApiEnv } from '../../http/env';
import type { CompatServices } from '../services';
import { SERVER_TOKEN_HEADER, serverTokenHash } from './auth';
import { postmarkErrorAnswer } from './errors';
import { readPostmarkJson } from './read-request';
import { sendPostmarkBatch, sendPostmarkBatchWithTemplates, sendPostmarkEmail, sendPostmarkWithTemplate } from './send';

type PostmarkSend = (services: CompatServices, apiKeyHash: string, readBody: () => Promise<unknown>) => Promise<unknown>;

/** A route of this door: the key's hash, the send, its answer; any error in Postmark's shape. */
function postmarkRoute(services: CompatServices, send: PostmarkSend) {
  return async (c: Context<ApiEnv>): Promise<Response> => {
    try {
      const apiKeyHash = serverTokenHash(c.req.header(SERVER_TOKEN_HEADER));
      return c.json((await send(services, apiKeyHash, () => readPostmarkJson(c))) as object, 200);
    } catch (error) {
      const answer = postmarkErrorAnswer(error);
      if (answer.status >= 500) logError('postmark door: request failed', error, { path: c.req.path, request_id: c.get('requestId') });
      return c.json(answer.body, answer.status, answer.headers);
    }
  };
}

function notFound(c: Context<ApiEnv>): Response {
  return c.json(
    {
      ErrorCode: 404,
      Message: `${c.req.method} ${c.req.path} is not an endpoint of this Postmark-compatible API: POST /email, /email/batch, /email/withTemplate and /email/batchWithTemplates are.`,
    },
    404,
  );
}

export function mountPostmark(app: Hono<ApiEnv>, services: CompatServices): void {
  app.post('/email', postmarkRoute(services, sendPostmarkEmail));
  app.post('/email/batch', postmarkRoute(services, sendPostmarkBatch));
  app.post('/email/withTemplate', postmarkRoute(services, sendPostmarkWithTemplate));
  app.post('/email/batchWithTemplates', postmarkRoute(services, sendPostmarkBatchWithTemplates));
  app.all('/email', notFound);
  app.all('/email/*', notFound);
}
