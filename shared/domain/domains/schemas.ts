import { z } from 'zod';
import { domainName } from '../emails/address';
import { TLS_MODES } from './domain';

export const createDomainSchema = z.object({
  name: domainName,
  tenant: z.string().trim().min(1).max(128).optional(),
  inbound_enabled: z.boolean().optional(),
});
export type CreateDomainInput = z.infer<typeof createDomainSchema>;

export const updateDomainSchema = z
  .object({
    open_tracking: z.boolean().optional(),
    click_tracking: z.boolean().optional(),
    tls_mode: z.enum(TLS_MODES, { message: `tls_mode must be one of ${TLS_MODES.join(', ')}` }).optional(),
  })
  .strict()
  .refine((value) => Object.keys(value).length > 0, { message: 'send at least one of open_tracking, click_tracking, tls_mode' });
export type UpdateDomainInput = z.infer<typeof updateDomainSchema>;

export const domainActionSchema = z.object({
  action: z.enum(['verify', 'apply'], { message: 'action must be verify or apply' }),
});

/** `{domain}` of POST /tenants/{tenant}/domains: an account domain, by name or by id. */
export const domainRef = z
  .string({ error: (issue) => (issue.input === undefined ? 'domain is required (a domain name or id)' : 'domain must be a string') })
  .trim()
  .min(1, 'domain is required (a domain name or id)')
  .max(253, 'domain is at most 253 characters')
  .transform((value) => value.replace(/\.$/, ''));

export const assignTenantDomainSchema = z.object({ domain: domainRef }).strict();
export type AssignTenantDomainInput = z.infer<typeof assignTenantDomainSchema>;

export const listDomainsQuerySchema = z.object({ tenant: z.string().trim().min(1).max(128).optional() });
