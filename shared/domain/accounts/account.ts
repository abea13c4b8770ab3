import type { PlanName } from './plans';

/** An account (a team): the owner of keys, domains, emails. */
export interface Account {
  id: string;
  email: string;
  plan: PlanName;
  payment_method: boolean;
  tenants_enabled: boolean;
  created_at: string;
  updated_at: string;
}
