/** Response schemas of the stored DNS host credentials (GET, PUT and DELETE /dns-providers, domains group). */
import * as z from 'zod';
import { DNS_HOSTS } from '#shared/domain/domains/dns-apply';
import type { PublicDnsProvider } from '#shared/domain/domains/dns-provider';
import { describing, timestamp } from '#shared/doors/openapi/common-schemas';

export const dnsProviderSchema = describing<PublicDnsProvider>()(
  z.strictObject({
    object: z.literal('dns_provider').describe('always `dns_provider`'),
    provider: z.enum(DNS_HOSTS).describe('the DNS host the credentials are for'),
    hint: z.string().describe('a few characters of the stored key or token, to recognise it; the secret is never returned'),
    created_at: timestamp.describe('when credentials for this host were first stored (ISO 8601)'),
    updated_at: timestamp.describe('when they were last stored (ISO 8601)'),
  }),
);

export const dnsProviderListSchema = z.strictObject({
  dns_providers: z.array(dnsProviderSchema).describe('the stored credentials, one per DNS host (at most two)'),
});
export const dnsProviderEnvelopeSchema = z.strictObject({
  dns_provider: dnsProviderSchema.describe('the stored credentials (a hint only)'),
});
