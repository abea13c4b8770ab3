/**
 * Reading a Postmark request: the JSON body (invalid JSON is Postmark's 402; an empty body its 300) and a
 * Postmark shape checked by its zod schema (./schema.ts), a mismatch being a 300 that names the fields
 * as Postmark writes them (`Headers[0].Name`).
 */
import type * as z from 'zod';
import { AppError } from '#shared/domain/errors';
import { readJson } from '../../http/request-validation';
import type { Context } from 'hono';
import { POSTMARK_CODES, PostmarkFailure } from './errors';

/** The parsed JSON body, or Postmark's refusal. */
export async function readPostmarkJson(c: Context): Promise<unknown> {
  try {
    return await readJson(c);
  } catch (error) {
    if (error instanceof AppError) {
      const invalidJson = /not valid JSON/.test(error.message);
      throw new PostmarkFailure(
        invalidJson ? POSTMARK_CODES.invalidJson : POSTMARK_CODES.invalidRequest,
        invalidJson ? 'The request body is not valid JSON.' : error.message,
      );
    }
    throw error;
  }
}

/** `Headers.0.Name` -> `Headers[0].Name`. */
export function postmarkPath(path: readonly PropertyKey[]): string {
  return (
    path.map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`)).join('') || '(body)'
  );
}

/** A Postmark shape parsed, or a 300 naming each field that is wrong. */
export function parsePostmark<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${postmarkPath(issue.path)}: ${issue.message}`);
  throw new PostmarkFailure(POSTMARK_CODES.invalidRequest, `Invalid email request: ${problems.join('; ')}.`);
}
