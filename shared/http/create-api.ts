/**
 * The frame every API group shares: request ids, authentication, the error envelope, 404s.
 * A group builds its routes on the returned app; the handler wraps it with hono/aws-lambda.
 */
import { Hono } from 'hono';
import { NotFoundError } from '../domain/errors';
import { errorResponse } from './errors';
import type { ApiEnv } from './env';
import { requireApiKey } from './middleware/authenticate';
import { requestId } from './middleware/request-id';
import type { AccountRepository } from '../store/accounts';
import type { ApiKeyRepository } from '../store/api-keys';
import { logError } from '../log';

export function createApi(deps: { apiKeys: ApiKeyRepository; accounts: AccountRepository }): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.use('*', requestId());
  app.use('*', requireApiKey(deps));
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
