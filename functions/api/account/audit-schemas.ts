/** Response schemas of the audit log (GET /audit-log; docs/audit-log.md). */
import * as z from 'zod';
import type { toPublicAuditRecord } from '#shared/domain/audit/audit-record';
import { describing, idOf, timestamp } from '#shared/doors/openapi/common-schemas';

const actorSchema = z
  .discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('api_key').describe('an API key'),
      id: z.string().describe('the key id (key_...)'),
      name: z.string().nullable().describe("the key's name (null when it was read after the key was revoked)"),
    }),
    z.strictObject({
      type: z.literal('user').describe('a dashboard user'),
      id: z.string().nullable().describe('the dashboard user id (usr_...); null for a failed sign-in of an email no user has'),
      email: z.string().nullable().describe("the user's email; null when unknown"),
      email_hash: z
        .string()
        .nullable()
        .describe('a failed sign-in of an unknown email: a hash of the email (never the email or a password)'),
      role: z.string().nullable().describe("the user's dashboard role then"),
    }),
    z.strictObject({ type: z.literal('operator').describe('the operator') }).describe('the admin CLI'),
  ])
  .describe('who acted');

export const auditRecordSchema = describing<ReturnType<typeof toPublicAuditRecord>>()(
  z.strictObject({
    object: z.literal('audit_record').describe('always `audit_record`'),
    id: idOf('aud').describe("the record's id (aud_...): ids order by time"),
    account_id: z.string().describe('the account changed'),
    tenant_id: z.string().nullable().describe('the tenant the acting key is limited to; null otherwise'),
    action: z
      .string()
      .describe(
        'the operationId of the change (`createApiKey`, `signIn`, `signInFailed`, ...), or `<METHOD> <route>` for a route without one (dashboard forms, the CLI: `cli:<command>`)',
      ),
    resource_ids: z
      .record(z.string(), z.string())
      .describe(
        "the ids in the change's path, by parameter name; for a create, also the id it made (under the name the resource's own routes give it: `id` for createApiKey, `tenant` for createTenant, `alias` for createTemplate)",
      ),
    actor: actorSchema,
    status: z.number().int().nullable().describe('the HTTP status answered; null for the CLI'),
    source_ip: z.string().nullable().describe("the client's IP address as API Gateway saw it"),
    user_agent: z.string().nullable().describe("the client's user agent (at most 256 characters)"),
    request_id: z.string().nullable().describe("the request's id (X-Request-Id)"),
    created_at: timestamp.describe('when the change was made'),
  }),
);
