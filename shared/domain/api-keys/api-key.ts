import type { Scope } from './scopes';

/** An API key as shown to users (never with its secret). */
export interface ApiKey {
  id: string;
  account_id: string;
  name: string;
  scopes: Scope[];
  tenant: string | null;
  allowed_domains: string[] | null;
  hint: string;
  created_at: string;
}
