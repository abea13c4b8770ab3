/**
 * Building blocks of the response schemas (functions/api/<group>/schemas.ts): timestamps, ids, list envelopes,
 * the error envelope. Response schemas describe what the API answers (z.output of them is what the
 * routes return); request schemas are the domain's own (shared/domain/**), documented as they validate.
 */
import * as z from 'zod';

/** ISO 8601 UTC with milliseconds (spec: "Timestamps are ISO 8601 UTC strings with milliseconds"). */
export const timestamp = z.string().meta({ format: 'date-time' });
export const nullableTimestamp = timestamp.nullable();

/** A public id: the prefix, `_` and a ULID (26 characters of Crockford base32). */
export const idOf = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`));

/** `{<name>: [item], has_more, next_cursor}`: every list's envelope (newest first, `?limit` and `?cursor`). */
export function listOf<N extends string, T extends z.ZodType>(name: N, item: T) {
  const shape = {
    [name]: z.array(item).describe(`this page's ${name.replace(/_/g, ' ')}, newest first (at most ?limit)`),
    has_more: z.boolean().describe('true when another page follows (exact: false on the last page)'),
    next_cursor: z.string().nullable().describe('pass as ?cursor= for the next page; null on the last page'),
  } as { [K in N]: z.ZodArray<T> } & { has_more: z.ZodBoolean; next_cursor: z.ZodNullable<z.ZodString> };
  return z.strictObject(shape);
}

/**
 * Compile-time proof that a response schema describes what a route returns: the type (e.g.
 * `ReturnType<typeof toPublicEmail>`) is assignable to the schema's output and both have the same keys.
 * The integration tests' contract check proves the rest on real responses.
 */
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;
export type Describes<Actual, S extends z.ZodType> = [Actual] extends [z.output<S>] ? SameKeys<Actual, z.output<S>> : false;
export function describing<Actual>() {
  return <S extends z.ZodType>(
    schema: S,
    ..._proof: Describes<Actual, S> extends true ? [] : [error: 'the schema does not describe the type']
  ): S => schema;
}

/** `{ok: true}`: what deletions answer. */
export const okSchema = z.strictObject({ ok: z.literal(true).describe('always true: the operation was done') });

export const tagSchema = z.strictObject({
  name: z.string().describe('the tag name: 1-256 of A-Za-z0-9_-'),
  value: z.string().describe('the tag value: 1-256 of A-Za-z0-9_-'),
});

/** The error envelope (shared/doors/http/errors.ts): every 4xx and 5xx but 401. */
export const errorBodySchema = z.strictObject({
  error: z
    .strictObject({
      message: z.string().describe('what went wrong and what to do'),
      code: z.string().describe('a stable machine-readable code (the operation lists those it can answer)'),
      details: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('structured facts, e.g. `fields: [{field, message}]` for validation_error'),
      hint: z.string().optional().describe('what to do about it, when there is advice (e.g. which key or scope to use)'),
      docs_url: z
        .string()
        .optional()
        .describe("a documentation link for the error (part of the spec's envelope; this service does not set it yet)"),
      upgrade_url: z.string().optional().describe('where to change plan (plan_limit)'),
    })
    .describe('what went wrong'),
});

/** 401: only the message (spec, Authentication 2). */
export const unauthorizedBodySchema = z.strictObject({
  error: z
    .strictObject({
      message: z.string().describe('why the request is not authenticated (missing, malformed, unknown or revoked key; no live session)'),
    })
    .describe('only a message: a 401 has no code'),
});
