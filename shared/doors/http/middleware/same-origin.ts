/**
 * 403 forbidden for a state-changing dashboard request (and the sign-in) a browser says comes from
 * another origin: `Origin` and `Sec-Fetch-Site`, when present (the rule: shared/domain/dashboard/same-origin.ts).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { crossOriginReason } from '#shared/domain/dashboard/same-origin';
import { ForbiddenError } from '#shared/domain/errors';
import type { ApiEnv } from '../env';

export function assertSameOrigin(c: Context): void {
  const reason = crossOriginReason({
    origin: c.req.header('origin'),
    secFetchSite: c.req.header('sec-fetch-site'),
    host: c.req.header('host'),
  });
  if (reason)
    throw new ForbiddenError(reason, 'forbidden', {
      hint: 'Use the dashboard from its own address; other sites cannot act on your behalf.',
    });
}

export function requireSameOrigin(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    assertSameOrigin(c);
    await next();
  };
}
