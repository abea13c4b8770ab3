/**
 * How an operation of the HTTP API is declared (functions/api/<group>/operations.ts): its route, who may
 * call it, the zod schemas that validate its input (the domain's own, shared/domain/**) and describe its
 * answers (functions/api/<group>/schemas.ts), the error codes it can answer, and examples. The route
 * (shared/doors/http/route.ts), the document (./document.ts) and API Gateway's routes (infra/api-routes.ts) are
 * generated from these; nothing in them is written by hand.
 */
import type * as z from 'zod';
import type { Scope } from '../../domain/api-keys/scopes';
import type { ErrorCode } from '../../domain/errors';
import type { RateLimitName } from '../../domain/rate-limits';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: an API key (Bearer), the dashboard's session cookie (with the CSRF header on
 * state-changing requests), or anyone (public: signed links, sign-in, the reference).
 */
export type Auth = 'apiKey' | 'session' | 'public';

/** Response headers an operation documents (./document.ts defines each). */
export type ResponseHeader = 'rateLimit' | 'retryAfter' | 'setCookie' | 'location' | 'contentDisposition';

export interface SuccessResponse {
  description: string;
  /** A JSON body, described by a response schema. */
  schema?: z.ZodType;
  /** A body of another type (HTML, CSV, an image), instead of or beside the JSON one. */
  mediaType?: 'text/html' | 'text/csv' | 'image/gif';
  headers?: ResponseHeader[];
  /** Headers that are always there (the contract check requires them). */
  requiredHeaders?: ResponseHeader[];
  example?: unknown;
}

export interface RequestBody {
  schema: z.ZodType;
  /** Optional bodies (POST /templates/{alias}/render): none is the same as `{}`. */
  optional?: boolean;
  /** Also accepted as an HTML form (the dashboard's sign-in page). */
  form?: boolean;
  /**
   * Set when the handler decodes the body itself, saying how (the schema then documents what that code
   * accepts; the unit tests parse its example with that code): the route hands the handler no body.
   */
  decodedBy?: string;
  example?: unknown;
}

export interface Operation {
  /** The API group (infra/definitions/api-groups.ts API_GROUPS) whose Lambda serves it: its Hono app has the route. */
  group: string;
  /** Reference section. */
  tag: string;
  method: HttpMethod;
  /** OpenAPI path (`/emails/{id}`); the Hono route is the same with `:id`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  auth: Auth;
  /**
   * Scopes any one of which (or a scope covering it: `full`, `mail:admin`) lets an API key call it: exactly the route's requireScope
   * (checked by test/unit/openapi/routes.test.ts), or what the use case checks (`scopesCheckedBy`).
   */
  scopes?: Scope[];
  /** Where the scope is checked when the route has no requireScope (e.g. the send core). */
  scopesCheckedBy?: string;
  /** Path parameters: name -> description. */
  pathParams?: Record<string, string>;
  /** The zod schema of the query string: the route validates it (400 validation_error) and hands it to the handler. */
  query?: z.ZodObject;
  /** Request headers the operation reads. */
  requestHeaders?: ('idempotencyKey' | 'batchValidation')[];
  body?: RequestBody;
  /** Success answers by status. */
  responses: Record<number, SuccessResponse>;
  /**
   * Error codes by status, besides the ones every operation of its kind can answer (401, 500; 400 and
   * 413 with a body; 400 with a query; 404 with a path parameter; 403 insufficient_scope with scopes).
   */
  errors?: Partial<Record<number, ErrorCode[]>>;
  /** Per-account rate limit, by name (RATE_LIMITS; ratelimit-* headers on every answer; 429 rate_limited). */
  rateLimit?: RateLimitName;
  /**
   * A create: the created resource's id, recorded in its audit record's resource_ids (docs/audit-log.md)
   * under `param` (the path parameter of the resource's own routes, so the create pairs with them: `id`
   * as in DELETE /api-keys/{id}), read from the JSON answer at `at` (a dotted path: `api_key.id`).
   * Every audited create declares it (test/unit/audit/audited-creates.test.ts).
   */
  creates?: CreatedId;
}

/** Where a create's answer holds the id it made, and the name the audit log records it under. */
export interface CreatedId {
  param: string;
  at: string;
}

/** An operation declared on its own; its type is kept (the route's handler gets its body and query typed). */
export const op = <O extends Operation>(operation: O): O => operation;

/** An operation of a section: its operationId is its key, its group and tag the section's unless it names its own. */
export type SectionOperation = Omit<Operation, 'group' | 'tag' | 'operationId'> & Partial<Pick<Operation, 'group' | 'tag'>>;

/** A section's operations by operationId, each keeping its declared type. */
export type Section<T extends Record<string, SectionOperation>> = {
  readonly [K in keyof T & string]: T[K] & { group: string; tag: string; operationId: K };
};

/** The operations of one API group, listed under one reference section (`tag`) unless one says otherwise. */
export function section<T extends Record<string, SectionOperation>>(group: string, tag: string, operations: T): Section<T> {
  return Object.fromEntries(
    Object.entries(operations).map(([operationId, operation]) => [operationId, { group, tag, ...operation, operationId }]),
  ) as Section<T>;
}
