/** Response schemas of the SMTP credentials group. */
import * as z from 'zod';
import type { toPublicSmtpCredential } from '#shared/domain/smtp-credentials/smtp-credential';
import { describing, idOf, nullableTimestamp, timestamp } from '#shared/doors/openapi/common-schemas';
import { tenantField, allowedDomains } from '../api-keys/schemas';

export const smtpCredentialSchema = describing<ReturnType<typeof toPublicSmtpCredential>>()(
  z.strictObject({
    object: z.literal('smtp_credential').describe('always `smtp_credential`'),
    id: idOf('smtp').describe("the credential's id (smtp_...): DELETE /smtp-credentials/{id} revokes it"),
    name: z.string().describe('a label for people (1-100 characters)'),
    username: z.string().describe('always the same literal username'),
    tenant: tenantField,
    allowed_domains: allowedDomains,
    created_at: timestamp.describe('when the credential was created (ISO 8601)'),
    last_used_at: nullableTimestamp.describe('set by the relay after a successful AUTH (at most about once a minute)'),
  }),
);

export const smtpCredentialCreatedSchema = z.strictObject({
  smtp_credential: smtpCredentialSchema.describe('the credential (never its password)'),
  password: z
    .string()
    .regex(/^svcsmtp_/)
    .describe('the SMTP password: shown only here'),
});
