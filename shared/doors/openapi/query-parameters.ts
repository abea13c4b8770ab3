/** The query parameters of an operation, from its query schema (described by the schema, else by QUERY_DESCRIPTIONS). */
import * as z from 'zod';
import { clean } from './clean-schema';
import type { JsonSchema } from './document-types';

/** Standard descriptions of query parameters the schemas do not describe. */
const QUERY_DESCRIPTIONS: Record<string, string> = {
  limit: 'Page size (1-100).',
  cursor: "The previous page's next_cursor (opaque; only valid for the same list).",
  tenant: "Only this tenant's: its external_id or id.",
  status: 'Only those with this status.',
  email: 'Only this address.',
  reason: 'Only this reason.',
  category: 'The opt-outs of this category instead of suppressions.',
  days: 'Days to count, ending today (UTC).',
  version: 'draft (default) or published.',
  format: 'csv (default) or json.',
  to: 'Only email to this address (header To or envelope).',
  from: 'Only email from this address.',
  since: 'Only email received at or after this time.',
};

export function queryParameters(schema: z.ZodObject): JsonSchema[] {
  const json = clean(z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' })) as JsonSchema;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: required.has(name),
      description: (description as string | undefined) ?? QUERY_DESCRIPTIONS[name] ?? '',
      schema: rest,
    };
  });
}
