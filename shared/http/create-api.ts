/**
 * The frame every API group shares: request ids, authentication, the error envelope, 404s.
 * A group builds its routes on the returned app; the handler wraps it with hono/aws-lambda.
 */
import { Hono } from 'hono';
import { NotFoundError } from '../domain/errors';
import { errorResponse } from './errors';
import type { ApiEnv } from './env';
import { requireApiKey, type AuthenticationOptions } from './middleware/authenticate';
import { requestId } from './middleware/request-id';
import type { AuthenticateDeps } from '../usecases/authenticate';
import { logError } from '../log';

/** Longest path segment any route takes (ids are a prefix and a ULID; names and emails are bounded too). */
export const MAX_PATH_SEGMENT = 512;

export function createApi(deps: AuthenticateDeps, options: AuthenticationOptions = {}): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.use('*', requestId());
  app.use('*', requireApiKey(deps, options));
  // No id of ours is longer than this: a longer path segment names nothing (and must never reach a
  // DynamoDB key, which refuses keys over 2 KB with an error).
  app.use('*', async (c, next) => {
    if (c.req.path.split('/').some((segment) => segment.length > MAX_PATH_SEGMENT)) {
      throw new NotFoundError(`Resource ${c.req.path.slice(0, 80)}…`);
    }
    await next();
  });
  app.notFound((c) => {
    const { status, body } = errorResponse(new NotFoundError(`Route ${c.req.method} ${c.req.path}`));
    return c.json(body, status as 404);
  });
  app.onError((error, c) => {
    const { status, body, headers } = errorResponse(error);
    for (const [name, value] of Object.entries(headers ?? {})) c.header(name, value);
    if (status >= 500) logError('request failed', error, { request_id: c.get('requestId'), path: c.req.path });
    return c.json(body, status as 500);
  });
  return app;
}
