/**
 * The filters of GET /audit-log and the dashboard's audit page (docs/audit-log.md, "Reading it"): `actor`
 * (an API key id, a dashboard user id, or `operator`), `action` (an operationId such as `createApiKey`, or
 * `<METHOD> <route>` for a route without one), `since` and `until` (ISO 8601 times, inclusive).
 */
import * as z from 'zod';

const time = (name: string) =>
  z
    .string()
    .refine(
      (value) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(value) && !Number.isNaN(Date.parse(value)),
      `${name} must be an ISO 8601 time (2026-01-31T12:00:00Z)`,
    )
    .optional();

export const auditFilterSchema = z.object({
  actor: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('only the changes of this actor: a key id (key_...), a dashboard user id (usr_...) or `operator`'),
  action: z
    .string()
    .min(1)
    .max(300)
    .optional()
    .describe(
      'only this action, exactly: an operationId (`createApiKey`), `signIn`, `signInFailed`, `cli:<command>` or `<METHOD> <route>`',
    ),
  since: time('since').describe('only records at or after this time (ISO 8601)'),
  until: time('until').describe('only records at or before this time (ISO 8601)'),
});
export type AuditFilter = z.output<typeof auditFilterSchema>;
