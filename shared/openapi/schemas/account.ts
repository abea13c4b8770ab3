/** Response schemas of API keys, SMTP credentials, DNS host credentials and the dashboard's session doors. */
import * as z from 'zod';
import type { toPublicApiKey } from '../../domain/api-keys/api-key';
import { SCOPES } from '../../domain/api-keys/scopes';
import type { toPublicUser } from '../../domain/dashboard/user';
import { DNS_HOSTS } from '../../domain/domains/dns-apply';
import type { toPublicSmtpCredential } from '../../domain/smtp-credentials/smtp-credential';
import type { PublicDnsProvider } from '../../usecases/dns-providers';
import { describing, idOf, nullableTimestamp, timestamp } from './common';

const tenantField = z.string().nullable().describe("the tenant's external_id the credential is limited to; null for the whole account");
const allowedDomains = z.array(z.string()).nullable().describe('sending domains the credential is limited to; null for any');

export const apiKeySchema = describing<ReturnType<typeof toPublicApiKey>>()(
  z.strictObject({
    object: z.literal('api_key'),
    id: idOf('key'),
    name: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    tenant: tenantField,
    allowed_domains: allowedDomains,
    hint: z.string().describe('the first characters of the secret, to recognise the key'),
    created_at: timestamp,
  }),
);

export const apiKeyCreatedSchema = z.strictObject({
  api_key: apiKeySchema,
  secret: z.string().regex(/^svc_/).describe('the key itself (`Authorization: Bearer <secret>`): shown only here'),
});

export const smtpCredentialSchema = describing<ReturnType<typeof toPublicSmtpCredential>>()(
  z.strictObject({
    object: z.literal('smtp_credential'),
    id: idOf('smtp'),
    name: z.string(),
    username: z.string().describe('always the same literal username'),
    tenant: tenantField,
    allowed_domains: allowedDomains,
    created_at: timestamp,
    last_used_at: nullableTimestamp.describe('set by the relay after a successful AUTH (at most about once a minute)'),
  }),
);

export const smtpCredentialCreatedSchema = z.strictObject({
  smtp_credential: smtpCredentialSchema,
  password: z.string().regex(/^svcsmtp_/).describe('the SMTP password: shown only here'),
});

export const dnsProviderSchema = describing<PublicDnsProvider>()(
  z.strictObject({
    object: z.literal('dns_provider'),
    provider: z.enum(DNS_HOSTS),
    hint: z.string().describe('a few characters of the stored key or token, to recognise it; the secret is never returned'),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const dnsProviderListSchema = z.strictObject({ dns_providers: z.array(dnsProviderSchema) });
export const dnsProviderEnvelopeSchema = z.strictObject({ dns_provider: dnsProviderSchema });

export const dashboardUserSchema = describing<ReturnType<typeof toPublicUser>>()(
  z.strictObject({
    object: z.literal('dashboard_user'),
    id: idOf('usr'),
    account_id: idOf('acc'),
    email: z.string(),
    role: z.literal('owner'),
    created_at: timestamp,
  }),
);

/** POST /dashboard/sign-in (JSON), GET /dashboard/session. */
export const sessionSchema = z.strictObject({
  user: dashboardUserSchema,
  csrf_token: z.string().describe('send as X-CSRF-Token on every state-changing request of the session'),
  expires_at: timestamp.describe('the session ends at this time whatever happens'),
  idle_expires_at: timestamp.describe('the session ends at this time unless used before'),
});
