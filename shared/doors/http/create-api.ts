/**
 * The frame every API group shares: request ids, authentication, the error envelope, 404s, and the
 * net under Lambda's 6 MB response limit (./lambda-response-budget.ts).
 * A group builds its routes on the returned app; the handler wraps it with hono/aws-lambda.
 * Every successful change by a key is recorded in the audit log (./middleware/audit.ts, docs/audit-log.md).
 * `createFrame` is the same without authentication (the public links group; the dashboard group, which
 * authenticates by session: functions/api/dashboard/app.ts).
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { NotFoundError } from '../../domain/errors';
import { errorResponse } from './errors';
import type { ApiEnv } from './env';
import { requireApiKey, type AuthenticationOptions } from './middleware/authenticate';
import { requestId } from './middleware/request-id';
import { auditChanges, type AuditMiddlewareDeps } from './middleware/audit';
import { responseWithinLambdaLimit } from './lambda-response-budget';
import type { AuthenticateDeps } from '../../usecases/access/authenticate';
import { logError } from '../../lib/log';

/**
 * Longest path segment (UTF-8 bytes, percent-decoded) any route takes: ids are a prefix and a ULID (30
 * characters); domain names and addresses (<= 254) fit too, and so will tenant external ids (128
 * characters: mind multi-byte ones if a route takes them). Two of them in one key stay under DynamoDB's
 * 1 KB sort key and 2 KB partition key limits.
 */
export const MAX_PATH_SEGMENT_BYTES = 256;

/** True when a path segment can name something of ours: short, and without control characters. */
export function isPlausiblePathSegment(segment: string): boolean {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // Not valid percent-encoding: the handler sees it as it is (as Hono does), so check it as it is.
  }
  return Buffer.byteLength(decoded, 'utf8') <= MAX_PATH_SEGMENT_BYTES && !/[\u0000-\u001f\u007f]/.test(decoded);
}

/**
 * The frame without authentication: request ids, the error envelope, 404s. The public `links` group
 * (unsubscribe, tracking: the signed token is the authority) is built on it; every other group on createApi.
 */
export function createFrame(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.use('*', responseWithinLambdaLimit());
  app.use('*', requestId());
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

/**
 * A path segment too long or odd to be an id names nothing: 404 here, before it can reach a DynamoDB key
 * (which refuses keys over its size limits with an error, a 500). After authentication.
 */
export function plausiblePaths(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    if (!c.req.path.split('/').every(isPlausiblePathSegment)) {
      throw new NotFoundError('The resource (a path segment longer than any id, or with characters no id has)');
    }
    await next();
  };
}

/** The services a group passes: authentication's, and the audit log (shared/services/access.ts; unit tests' stubs have none: no audit). */
export type ApiFrameDeps = AuthenticateDeps & Partial<AuditMiddlewareDeps>;

export function createApi(deps: ApiFrameDeps, options: AuthenticationOptions = {}): Hono<ApiEnv> {
  const app = createFrame();
  if (deps.auditLog && deps.clock) app.use('*', auditChanges({ auditLog: deps.auditLog, clock: deps.clock }));
  app.use('*', requireApiKey(deps, options));
  app.use('*', plausiblePaths());
  return app;
}
