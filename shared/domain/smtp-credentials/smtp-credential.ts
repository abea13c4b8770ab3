/**
 * An SMTP credential: the password of the SMTP relay (docs/smtp.md). Like an API key limited to sending:
 * optionally limited to one tenant and to some sending domains. Its password is shown once and stored only
 * as a hash (./secret.ts).
 */
import * as z from 'zod';
import type { Scope } from '../api-keys/scopes';
import { SMTP_USERNAME } from './secret';

/** The schema of its stored listing item (the store decodes with it: shared/adapters/store/smtp-credentials.ts), the single source of the type. */
export const smtpCredentialSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  name: z.string(),
  /** The tenant id (ten_...) it is limited to; null for the whole account. */
  tenant: z.string().nullable(),
  /** That tenant's external_id (immutable), shown as `tenant`. */
  tenant_external_id: z.string().nullable().optional(),
  allowed_domains: z.array(z.string()).nullable(),
  created_at: z.string(),
  /** Set by the relay after a successful AUTH (at most about once a minute per credential); absent (null) until then. */
  last_used_at: z.string().nullable().default(null),
});
export type SmtpCredential = z.output<typeof smtpCredentialSchema>;

/** What a credential may do: send, and nothing else. */
export const SMTP_CREDENTIAL_SCOPES: Scope[] = ['emails:send'];

/** The API's view (never the password): `tenant` is the tenant's external_id. */
export function toPublicSmtpCredential(credential: SmtpCredential) {
  return {
    object: 'smtp_credential' as const,
    id: credential.id,
    name: credential.name,
    username: SMTP_USERNAME,
    tenant: credential.tenant === null ? null : (credential.tenant_external_id ?? credential.tenant),
    allowed_domains: credential.allowed_domains,
    created_at: credential.created_at,
    last_used_at: credential.last_used_at ?? null,
  };
}
