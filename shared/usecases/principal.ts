/**
 * Who is acting, whatever the door (HTTP API key, SMTP credential, an automation step, a dashboard
 * session): the account and the credential it used, with what that credential may do. Nothing here knows
 * about HTTP.
 */
import type { Account } from '../domain/accounts/account';

export interface Credential {
  /** `session`: a signed-in dashboard user (id: the user's usr_ id), with the account's full access. */
  kind: 'api_key' | 'smtp' | 'automation' | 'session';
  id: string;
  scopes: string[];
  /** Set when the credential is limited to one tenant. */
  tenant: string | null;
  /** Set when the credential may only send from these domains. */
  allowed_domains: string[] | null;
}

export interface Principal {
  account: Account;
  credential: Credential;
}
