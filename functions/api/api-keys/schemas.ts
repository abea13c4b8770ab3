/** Response schemas of the API keys group. */
import * as z from 'zod';
import type { toPublicApiKey } from '#shared/domain/api-keys/api-key';
import { SCOPES } from '#shared/domain/api-keys/scopes';
import { describing, idOf, timestamp } from '#shared/doors/openapi/common-schemas';

export const tenantField = z
  .string()
  .nullable()
  .describe("the tenant's external_id the credential is limited to; null for the whole account");
export const allowedDomains = z.array(z.string()).nullable().describe('sending domains the credential is limited to; null for any');

export const apiKeySchema = describing<ReturnType<typeof toPublicApiKey>>()(
  z.strictObject({
    object: z.literal('api_key').describe('always `api_key`'),
    id: idOf('key').describe("the key's id (key_...): DELETE /api-keys/{id} revokes it"),
    name: z.string().describe('a label for people (1-100 characters)'),
    scopes: z
      .array(z.enum(SCOPES))
      .describe(
        'what the key may do: full grants everything; mail:admin everything but full and account:admin; account:admin the account settings, audit log, exports and erasures; account:read reads; each other scope one area',
      ),
    tenant: tenantField,
    allowed_domains: allowedDomains,
    hint: z.string().describe('the first characters of the secret, to recognise the key'),
    created_at: timestamp.describe('when the key was created (ISO 8601)'),
  }),
);

export const apiKeyCreatedSchema = z.strictObject({
  api_key: apiKeySchema.describe('the key (never its secret)'),
  secret: z.string().regex(/^svc_/).describe('the key itself (`Authorization: Bearer <secret>`): shown only here'),
});
