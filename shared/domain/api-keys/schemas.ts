import * as z from 'zod';
import { SCOPES } from './scopes';
import { domainName } from '../mail/address';
import { tenantParam } from '../tenants/schemas';

export const createApiKeySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'name is required')
    .max(100, 'name is at most 100 characters')
    .describe('a label for people (1-100 characters)'),
  scopes: z
    .array(z.enum(SCOPES, { message: `unknown scope; valid scopes: ${SCOPES.join(', ')}` }))
    .min(1, 'at least one scope is required')
    .max(SCOPES.length)
    .transform((scopes) => [...new Set(scopes)])
    // Absent: the creator's own scopes (./reach.ts), as Resend's `permission` defaults to full_access for a full key.
    .optional()
    .describe(
      "what the key may do (at least one; absent: the creator's own scopes): each must be covered by the creator's (full covers every scope, mail:admin every one but full and account:admin); a key limited to a tenant may combine allowed_domains with full",
    ),
  tenant: tenantParam
    .optional()
    .describe(
      'limit it to this tenant (external_id or id): it acts only as that tenant and sees only its resources; absent: the whole account',
    ),
  allowed_domains: z
    .array(domainName)
    .min(1, 'allowed_domains needs at least one domain when given')
    .max(100)
    .transform((domains) => [...new Set(domains)])
    .optional()
    .describe(
      "limit sending to these domains (1-100; list the sandbox domain to allow it); absent: the creator's own list (any domain for an unlimited creator); a creator limited to domains may give only a subset of them",
    ),
});

export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;
