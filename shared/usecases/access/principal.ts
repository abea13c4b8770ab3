/**
 * Who is acting, whatever the door (HTTP API key, SMTP credential, an automation step, a dashboard
 * session): the account and the credential it used, with what that credential may do. Nothing here knows
 * about HTTP.
 */
import type { Account } from '../../domain/accounts/account';
import { UnauthorizedError } from '../../domain/errors';
import type { ApiKeyLookup } from '../../adapters/store/api-keys';

export interface Credential {
  /** `session`: a signed-in dashboard user (id: the user's usr_ id), with its role's scopes (ROLE_SCOPES); `forward`: a
   * receiving domain's forward routes (id: the domain's dom_ id; shared/usecases/inbound/forward-received.ts). */
  kind: 'api_key' | 'smtp' | 'automation' | 'session' | 'forward';
  id: string;
  scopes: string[];
  /** Set when the credential is limited to one tenant. */
  tenant: string | null;
  /** Set when the credential may only send from these domains. */
  allowed_domains: string[] | null;
  /** An API key's name, when its lookup item holds it (keys made since 2026-11-28): the audit log's actor. */
  name?: string;
}

export interface Principal {
  account: Account;
  credential: Credential;
}

/** Which door's secret a caller presents: an API key (HTTP) or an SMTP credential (the relay). */
export type SecretKind = Credential['kind'];

export function invalidApiKey(): UnauthorizedError {
  return new UnauthorizedError('Invalid API key.');
}

export function invalidSmtpCredential(): UnauthorizedError {
  return new UnauthorizedError('Invalid SMTP credential.');
}

/** 401 naming the secret a door takes: an API key, or an SMTP credential. */
export const invalidSecret = (kind: SecretKind) => (kind === 'smtp' ? invalidSmtpCredential() : invalidApiKey());

/**
 * The principal of a lookup and its account, or 401 when either is gone (revoked key or credential,
 * deleted account) or the secret is of another door's kind (an SMTP password is never an API key).
 */
export function principalOf(key: ApiKeyLookup | null, account: Account | null, kind: SecretKind = 'api_key'): Principal {
  if (!key || !account || account.id !== key.account_id || key.kind !== kind) throw invalidSecret(kind);
  return {
    account,
    credential: {
      kind,
      id: key.key_id,
      scopes: key.scopes,
      tenant: key.tenant,
      allowed_domains: key.allowed_domains,
      ...(key.name === undefined ? {} : { name: key.name }),
    },
  };
}
