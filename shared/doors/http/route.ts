/**
 * Registers the operations of a group (functions/api/<group>/operations.ts, or <area>-operations.ts) on its
 * Hono app. Everything a route needs besides its handler comes from the operation's declaration: the method
 * and path, the scope check (403 insufficient_scope; none when the use case checks it: `scopesCheckedBy`),
 * the per-account rate limit, and the validation of the query and the JSON body (400 validation_error), in
 * that order and after authentication. The handler gets what was validated, typed from the declaration's
 * schemas:
 *
 *   const route = routes(app, services);
 *   route(apiKeyOps.listApiKeys, async (c, { query }) => c.json(listPage('api_keys', await listApiKeys(...))));
 *
 * So an endpoint is declared once (its operation) and written once (its handler); the OpenAPI document
 * and API Gateway's routes come from the same declaration.
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type * as z from 'zod';
import type { Operation } from '../openapi/operation';
import type { Clock } from '../../ports/clock';
import type { RateLimitRepository } from '../../adapters/store/rate-limits';
import type { ApiEnv } from './env';
import { recordCreatedFromAnswer } from './created-ids';
import { rateLimit } from './middleware/rate-limit';
import { requireScope } from './middleware/require-scope';
import { parseWith, readJson } from './request-validation';

type BodyOf<O> = O extends { body: { decodedBy: string } }
  ? undefined
  : O extends { body: { schema: infer S extends z.ZodType } }
    ? z.output<S>
    : undefined;
type QueryOf<O> = O extends { query: infer Q extends z.ZodType } ? z.output<Q> : undefined;
type ParamsOf<O> = O extends { pathParams: infer P } ? { readonly [K in keyof P]: string } : Record<string, never>;

/** What the handler of an operation gets, validated. */
export interface RouteInput<O extends Operation> {
  /** The JSON body parsed with the operation's schema; undefined without a body or when the handler decodes it (`decodedBy`). */
  body: BodyOf<O>;
  /** The query string parsed with the operation's query schema. */
  query: QueryOf<O>;
  /** The path parameters the operation declares. */
  params: ParamsOf<O>;
}

export type RouteHandler<O extends Operation> = (c: Context<ApiEnv>, input: RouteInput<O>) => Response | Promise<Response>;

/** What the routes' own checks use: the rate-limit counters and the clock. */
export interface RouteDeps {
  rateLimits: RateLimitRepository;
  clock: Clock;
}

/** `/emails/{id}` (OpenAPI) -> `/emails/:id` (Hono). */
export const honoPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** The checks an operation's declaration puts before its handler: scope, then rate limit. */
function guardsOf(operation: Operation, deps: RouteDeps | undefined): MiddlewareHandler<ApiEnv>[] {
  const guards: MiddlewareHandler<ApiEnv>[] = [];
  if (operation.auth !== 'public' && operation.scopes && !operation.scopesCheckedBy) guards.push(requireScope(...operation.scopes));
  if (operation.rateLimit) {
    if (!deps) throw new Error(`${operation.operationId} is rate limited: its group's routes need the rate-limit counters`);
    guards.push(rateLimit(deps, operation.rateLimit));
  }
  return guards;
}

/** The body an operation validates: none, an optional one (empty is `{}`), or a JSON object. */
async function bodyOf(operation: Operation, c: Context<ApiEnv>): Promise<unknown> {
  const body = operation.body;
  if (!body || body.decodedBy) return undefined;
  if (body.optional && (await c.req.text()).trim() === '') return parseWith(body.schema, {});
  return parseWith(body.schema, await readJson(c));
}

/** What a door puts before an operation's own checks (the dashboard's same-origin and session checks). */
export interface RouteOptions {
  before?: MiddlewareHandler<ApiEnv>[];
}

/** A function that registers an operation and its handler on `app` (`deps` for rate-limited operations). */
export function routes(app: Hono<ApiEnv>, deps?: RouteDeps) {
  return function route<O extends Operation>(operation: O, handler: RouteHandler<O>, options: RouteOptions = {}): void {
    const handle: MiddlewareHandler<ApiEnv> = async (c) => {
      const query = operation.query ? parseWith(operation.query, c.req.query(), 'query') : undefined;
      const body = await bodyOf(operation, c);
      const response = await handler(c, { body, query, params: c.req.param() } as RouteInput<O>);
      // A create hands the id it made to the audit log (./created-ids.ts).
      if (operation.creates) await recordCreatedFromAnswer(c, operation.creates, response);
      return response;
    };
    // The operation's id on the request, first: the audit log (./middleware/audit.ts) names a change by it.
    const named: MiddlewareHandler<ApiEnv> = async (c, next) => {
      c.set('operationId', operation.operationId);
      await next();
    };
    app.on(
      operation.method.toUpperCase(),
      honoPath(operation.path),
      named,
      ...(options.before ?? []),
      ...guardsOf(operation, deps),
      handle,
    );
  };
}
