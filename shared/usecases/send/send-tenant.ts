/**
 * The send's tenant (spec rule 12 and Authentication 3, ./tenant-policy.ts): named (403
 * tenants_not_enabled, 404, 403 for a key limited to another), else the key's, else the from domain's.
 * Found among the items of the send's read when it was planned right (./tenant-read.ts); otherwise looked
 * up (one more read). What was found is remembered for the next send's plan.
 */
import { NotFoundError } from '../../domain/errors';
import type { SendContext } from '../../adapters/store/send-context';
import type { StoredTenant, TenantRepository } from '../../adapters/store/tenants';
import type { Principal } from '../access/principal';
import { checkTenantAllowed, checkTenantsEnabled } from '../access/tenant-scope';
import { chooseSendTenant, type ClaimOwner } from './tenant-policy';
import { tenantInContext, type TenantGuesses, type TenantReadPlan } from './tenant-read';

export interface SendTenantDeps {
  tenants: Pick<TenantRepository, 'find'>;
  guesses: Pick<TenantGuesses, 'rememberTenant'>;
}

/**
 * The send's tenant and the from domain's claim as it still counts: a tenant being deleted gives its
 * domains back to the account, so a domain's tenant that is gone leaves a claim of the account.
 */
export async function sendTenantOf(
  deps: SendTenantDeps,
  principal: Principal,
  named: string | undefined,
  read: { context: SendContext; plan: TenantReadPlan },
  claim: ClaimOwner | null,
): Promise<{ tenant: StoredTenant | null; claim: ClaimOwner | null }> {
  const accountId = principal.account.id;
  const choice = chooseSendTenant(named, principal.credential.tenant, accountId, claim);
  if (choice.kind === 'none') return { tenant: null, claim };
  if (choice.kind === 'named') checkTenantsEnabled(principal);
  const ref = choice.kind === 'named' ? choice.ref : choice.id;
  const found = tenantInContext(read.context, read.plan, accountId, choice);
  let tenant: StoredTenant | null = found.kind === 'found' ? found.stored : null;
  if (found.kind === 'not_read') {
    const stored = await deps.tenants.find(accountId, ref);
    tenant = stored && !stored.deleting ? stored : null;
  }
  if (!tenant) {
    if (choice.kind === 'domain') return { tenant: null, claim: claim && { ...claim, tenant_id: null } };
    throw new NotFoundError('Tenant', ref);
  }
  checkTenantAllowed(principal, tenant.tenant);
  deps.guesses.rememberTenant(tenant.tenant);
  return { tenant, claim };
}
