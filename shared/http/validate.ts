/** Request decoding: JSON body and query parsing through zod schemas, failures as 400 validation_error. */
import type { Context } from 'hono';
import type * as z from 'zod';
import { ValidationError } from '../domain/errors';

export { issuesToFields, parseWith } from '../domain/validation';
import { parseWith } from '../domain/validation';

export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') throw new ValidationError('The request body is empty; send a JSON object.', { details: { fields: [{ field: '(body)', message: 'required' }] } });
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError('The request body is not valid JSON.', { details: { fields: [{ field: '(body)', message: 'invalid JSON' }] } });
  }
}

export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  return parseWith(schema, await readJson(c));
}
