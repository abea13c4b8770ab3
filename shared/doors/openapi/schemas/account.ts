/** Response schemas of API keys, SMTP credentials, DNS host credentials and the dashboard's session doors. */
import * as z from 'zod';
import type { toPublicApiKey } from '../../../domain/api-keys/api-key';
import { SCOPES } from '../../../domain/api-keys/scopes';
import { DASHBOARD_ROLES } from '../../../domain/dashboard/roles';
import type { toPublicUser } from '../../../domain/dashboard/user';
import { DNS_HOSTS } from '../../../domain/domains/dns-apply';
import type { toPublicSmtpCredential } from '../../../domain/smtp-credentials/smtp-credential';
import type { PublicDnsProvider } from '../../../domain/domains/dns-provider';
import { describing, idOf, nullableTimestamp, timestamp } from './common';

const tenantField = z.string().nullable().describe("the tenant's external_id the credential is limited to; null for the whole account");
const allowedDomains = z.array(z.string()).nullable().describe('sending domains the credential is limited to; null for any');

export const apiKeySchema = describing<ReturnType<typeof toPublicApiKey>>()(
  z.strictObject({
    object: z.literal('api_key').describe('always `api_key`'),
    id: idOf('key').describe("the key's id (key_...): DELETE /api-keys/{id} revokes it"),
    name: z.string().describe('a label for people (1-100 characters)'),
    scopes: z.array(z.enum(SCOPES)).describe('what the key may do: full grants everything; mail:admin everything but full and account:admin; account:admin the account settings, audit log, exports and erasures; account:read reads; each other scope one area'),
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
  password: z.string().regex(/^svcsmtp_/).describe('the SMTP password: shown only here'),
});

export const dnsProviderSchema = describing<PublicDnsProvider>()(
  z.strictObject({
    object: z.literal('dns_provider').describe('always `dns_provider`'),
    provider: z.enum(DNS_HOSTS).describe('the DNS host the credentials are for'),
    hint: z.string().describe('a few characters of the stored key or token, to recognise it; the secret is never returned'),
    created_at: timestamp.describe('when credentials for this host were first stored (ISO 8601)'),
    updated_at: timestamp.describe('when they were last stored (ISO 8601)'),
  }),
);

export const dnsProviderListSchema = z.strictObject({ dns_providers: z.array(dnsProviderSchema).describe('the stored credentials, one per DNS host (at most two)') });
export const dnsProviderEnvelopeSchema = z.strictObject({ dns_provider: dnsProviderSchema.describe('the stored credentials (a hint only)') });

export const dashboardUserSchema = describing<ReturnType<typeof toPublicUser>>()(
  z.strictObject({
    object: z.literal('dashboard_user').describe('always `dashboard_user`'),
    id: idOf('usr').describe("the user's id (usr_...)"),
    account_id: idOf('acc').describe('the account the user belongs to (acc_...)'),
    email: z.string().describe('the address the user signs in with (lower-cased)'),
    role: z.enum(DASHBOARD_ROLES).describe('owner, admin, developer or viewer (docs/dashboard.md, "Teams and roles")'),
    created_at: timestamp.describe('when the user was created (ISO 8601)'),
  }),
);

/** POST /dashboard/sign-in (JSON), GET /dashboard/session. */
export const sessionSchema = z.strictObject({
  user: dashboardUserSchema.describe('who is signed in'),
  csrf_token: z.string().describe('send as X-CSRF-Token on every state-changing request of the session'),
  expires_at: timestamp.describe('the session ends at this time whatever happens'),
  idle_expires_at: timestamp.describe('the session ends at this time unless used before'),
});
