/**
 * Schema validation shared by every door (HTTP routes, use cases, later the SMTP relay): zod issues
 * become `details.fields: [{field, message}]` of a 400 validation_error. No HTTP here.
 */
import type * as z from 'zod';
import { ValidationError } from './errors';

export function issuesToFields(issues: readonly z.core.$ZodIssue[], emptyPath = '(body)'): { field: string; message: string }[] {
  return issues.map((issue) => ({ field: issue.path.map(String).join('.') || emptyPath, message: issue.message }));
}

/** Fields a message names at most; the rest are counted ("check a, b and 98 more"). */
const NAMED_FIELDS = 10;

/** The fields named by a list of problems, once each, for a message ("check from, to"). */
export function fieldNames(fields: readonly { field: string }[]): string {
  const names = [...new Set(fields.map((f) => f.field))];
  if (names.length <= NAMED_FIELDS) return names.join(', ');
  return `${names.slice(0, NAMED_FIELDS).join(', ')} and ${(names.length - NAMED_FIELDS).toLocaleString('en-US')} more`;
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown, what = 'request body'): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const fields = issuesToFields(result.error.issues);
    throw new ValidationError(`Invalid ${what}: check ${fieldNames(fields)}.`, { details: { fields } });
  }
  return result.data;
}
