import * as z from 'zod';
import { domainName } from '../mail/address';
import { tenantParam } from '../tenants/schemas';
import { TLS_MODES } from './domain';
import { dmarcReportsInputSchema } from './dmarc-reports';
import { DNS_HOSTS, type DnsHostCredentials, type DnsHostName } from './dns-apply';

export const createDomainSchema = z.object({
  name: domainName.describe('the domain name to send from, e.g. acme.com'),
  tenant: tenantParam.optional().describe("make it that tenant's domain from the start (external_id or id); absent: account-wide"),
  inbound_enabled: z
    .boolean()
    .optional()
    .describe('true adds a receive-only subdomain inbound.<domain> and its MX record (default false; PATCH /domains/{id} changes it)'),
});
export type CreateDomainInput = z.infer<typeof createDomainSchema>;

export const updateDomainSchema = z
  .object({
    open_tracking: z.boolean().optional().describe('a 1x1 pixel in the html of every email from the domain, and email.opened events'),
    click_tracking: z.boolean().optional().describe('http(s) links of html and text through a signed redirect, and email.clicked events'),
    tls_mode: z
      .enum(TLS_MODES, { message: `tls_mode must be one of ${TLS_MODES.join(', ')}` })
      .optional()
      .describe('opportunistic: TLS whenever the receiving server offers it; enforced: only over TLS (else the email bounces)'),
    inbound_enabled: z
      .boolean()
      .optional()
      .describe(
        'receive mail on inbound.<domain>: true adds the subdomain and its MX record to the records (pending until a verify finds it), false removes both and stops receiving',
      ),
    inbound_store_content: z
      .boolean({ error: 'inbound_store_content must be a boolean' })
      .optional()
      .describe(
        'false: mail received on the domain is recorded without its content (no bodies, headers, attachments nor subject; the raw message is deleted once parsed) and email.received carries none either (docs/redaction.md); true (default): kept for the retention window',
      ),
    dmarc_reports: dmarcReportsInputSchema
      .optional()
      .describe(
        'DMARC aggregate reports read by the service (docs/deliverability.md, "DMARC aggregate reports"): the suggested DMARC record names the address in rua=, and GET /domains/{id}/dmarc answers the figures',
      ),
  })
  .strict()
  .refine((value) => Object.keys(value).length > 0, {
    message: 'send at least one of open_tracking, click_tracking, tls_mode, inbound_enabled, inbound_store_content, dmarc_reports',
  });
export type UpdateDomainInput = z.infer<typeof updateDomainSchema>;

export const domainActionSchema = z.object({
  action: z.enum(['verify', 'apply'], { message: 'action must be verify or apply' }),
});

/** A credential field: a non-empty string without spaces. Messages never quote the value. */
const credential = (name: string, max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a string`) })
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} is at most ${max} characters`)
    .regex(/^\S+$/, `${name} must not contain spaces`);

/** Route 53: an access key (an IAM user's, or temporary ones with their session token). */
export const route53CredentialsSchema = z
  .object({
    access_key_id: credential('access_key_id', 128).describe('Route 53: an AWS access key id (at most 128 characters)'),
    secret_access_key: credential('secret_access_key', 256).describe('Route 53: its secret access key (at most 256 characters)'),
    session_token: credential('session_token', 4096)
      .optional()
      .describe('Route 53: the session token of temporary credentials (at most 4096 characters)'),
  })
  .strict();

/** Cloudflare: an API token with Zone:Read and DNS:Edit on the zone. */
export const cloudflareCredentialsSchema = z
  .object({
    api_token: credential('api_token', 256).describe(
      'Cloudflare: an API token with Zone:Read and DNS:Edit on the zone (at most 256 characters)',
    ),
  })
  .strict();

const providerSchema = z.enum(DNS_HOSTS, { message: `provider must be one of ${DNS_HOSTS.join(', ')}` });

/** A `credentials` object: checked against the host's fields after the provider is known. */
const credentialsObject = z.record(z.string(), z.unknown(), { message: 'credentials must be an object' });

/**
 * `credentials` parsed for `provider` into DnsHostCredentials; the issues (never the values) reported
 * under `credentials.<field>`.
 */
function parseCredentials(provider: DnsHostName, raw: Record<string, unknown>, ctx: z.RefinementCtx): DnsHostCredentials | typeof z.NEVER {
  const parsed = (provider === 'route53' ? route53CredentialsSchema : cloudflareCredentialsSchema).safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: 'custom', path: ['credentials', ...issue.path.map(String)], message: issue.message });
    return z.NEVER;
  }
  const data = parsed.data as Record<string, string | undefined>;
  if (provider === 'cloudflare') return { provider, apiToken: data.api_token! };
  return {
    provider,
    accessKeyId: data.access_key_id!,
    secretAccessKey: data.secret_access_key!,
    ...(data.session_token ? { sessionToken: data.session_token } : {}),
  };
}

/**
 * `POST /domains/{id} {action: "apply", provider, credentials?}`: credentials for this request only;
 * without them, those stored for the account (PUT /dns-providers/{provider}), else (Route 53 only) the
 * service's own AWS credentials.
 */
export const applyDnsSchema = z
  .object({ action: z.literal('apply'), provider: providerSchema, credentials: credentialsObject.optional() })
  .strict()
  .transform((value, ctx) => ({
    provider: value.provider,
    credentials: value.credentials === undefined ? null : parseCredentials(value.provider, value.credentials, ctx),
  }));
export type ApplyDnsInput = z.output<typeof applyDnsSchema>;

export const dnsProviderParamSchema = providerSchema;

/** `PUT /dns-providers/{provider} {credentials}`: stored sealed for the account's later applies. */
export function storeDnsProviderSchema(provider: DnsHostName) {
  return z
    .object({ credentials: credentialsObject })
    .strict()
    .transform((value, ctx) => parseCredentials(provider, value.credentials, ctx));
}

/** `{domain}` of POST /tenants/{tenant}/domains: an account domain, by name or by id. */
export const domainRef = z
  .string({ error: (issue) => (issue.input === undefined ? 'domain is required (a domain name or id)' : 'domain must be a string') })
  .trim()
  .min(1, 'domain is required (a domain name or id)')
  .max(253, 'domain is at most 253 characters')
  .transform((value) => value.replace(/\.$/, ''));

export const assignTenantDomainSchema = z.object({ domain: domainRef.describe('an account domain: its name or id (dom_...)') }).strict();
export type AssignTenantDomainInput = z.infer<typeof assignTenantDomainSchema>;

export const listDomainsQuerySchema = z.object({
  tenant: tenantParam.optional().describe("only this tenant's domains: its external_id or id"),
});
