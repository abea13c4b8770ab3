import type { MiddlewareHandler } from 'hono';
import { newId } from '#shared/domain/ids';
import type { ApiEnv } from '../env';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Gives every request an id (API Gateway's when present) and returns it in a response header. */
export function requestId(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const fromGateway =
      c.env?.event?.requestContext && 'requestId' in c.env.event.requestContext ? c.env.event.requestContext.requestId : undefined;
    const id = fromGateway ? `req_${fromGateway}` : newId('req');
    c.set('requestId', id);
    c.header(REQUEST_ID_HEADER, id);
    await next();
  };
}
