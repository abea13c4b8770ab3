import * as z from 'zod';
import { SCOPES } from './scopes';
import { domainName } from '../emails/address';

export const createApiKeySchema = z.object({
  name: z.string().trim().min(1, 'name is required').max(100, 'name is at most 100 characters'),
  scopes: z
    .array(z.enum(SCOPES, { message: `unknown scope; valid scopes: ${SCOPES.join(', ')}` }))
    .min(1, 'at least one scope is required')
    .max(SCOPES.length)
    .transform((scopes) => [...new Set(scopes)]),
  tenant: z.string().trim().min(1).max(128).optional(),
  allowed_domains: z
    .array(domainName)
    .min(1, 'allowed_domains needs at least one domain when given')
    .max(100)
    .transform((domains) => [...new Set(domains)])
    .optional(),
});

export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;
