/** Request decoding: JSON body and query parsing through zod schemas, failures as 400 validation_error. */
import type { Context } from 'hono';
import type * as z from 'zod';
import { ValidationError } from '../../domain/errors';
import { fieldNestedDeeperThan, MAX_BODY_DEPTH } from '../../domain/bounds';

export { issuesToFields, parseWith } from '../../domain/request-validation';
import { parseWith } from '../../domain/request-validation';

export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '')
    throw new ValidationError('The request body is empty; send a JSON object.', {
      details: { fields: [{ field: '(body)', message: 'required' }] },
    });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ValidationError('The request body is not valid JSON.', {
      details: { fields: [{ field: '(body)', message: 'invalid JSON' }] },
    });
  }
  // No operation takes deeper bodies: refused here, naming the field, before a schema or a message can
  // recurse into one (a 1 MB body can be nested 500,000 levels, past any recursive walk's stack).
  const deep = fieldNestedDeeperThan(body, MAX_BODY_DEPTH);
  if (deep !== null) {
    const message = `nested more than ${MAX_BODY_DEPTH} levels deep`;
    throw new ValidationError(`Invalid request body: ${deep} is ${message}.`, {
      details: { fields: [{ field: deep, message: `${deep} is ${message}` }] },
    });
  }
  return body;
}

export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  return parseWith(schema, await readJson(c));
}
