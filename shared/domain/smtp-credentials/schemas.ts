import type * as z from 'zod';
import { createApiKeySchema } from '../api-keys/schemas';

/**
 * POST /smtp-credentials. `name`, `tenant` and `allowed_domains` are the API key fields themselves, so
 * both kinds of credential are limited (and validated) exactly alike; a credential has no `scopes`
 * (it may only send).
 */
export const createSmtpCredentialSchema = createApiKeySchema.pick({ name: true, tenant: true, allowed_domains: true });

export type CreateSmtpCredentialInput = z.infer<typeof createSmtpCredentialSchema>;
