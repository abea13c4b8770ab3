/**
 * Who is acting, whatever the door (HTTP API key, SMTP credential, an automation step): the account and
 * the credential it used, with what that credential may do. Nothing here knows about HTTP.
 */
import type { Account } from '../domain/accounts/account';

export interface Credential {
  kind: 'api_key' | 'smtp' | 'automation';
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
