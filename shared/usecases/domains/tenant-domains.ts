/**
 * A tenant's domains: give an account domain to a tenant, list them, return one (or all, when the tenant
 * is deleted) to the account, with the domain's SES tenant association following.
 */
import type { Domain } from '../../domain/domains/domain';
import type { AssignTenantDomainInput } from '../../domain/domains/schemas';
import { ConflictError, NotFoundError, ServiceUnavailableError } from '../../domain/errors';
import type { Tenant } from '../../domain/tenants/tenant';
import { logError } from '../../lib/log';
import type { Page } from '../../adapters/store/cursor';
import type { DomainCrud } from '../../adapters/store/domains/crud';
import type { DomainTenants } from '../../adapters/store/domains/tenants';
import type { PageRequest } from '../../adapters/store/paginate';
import type { Principal } from '../access/principal';
import { linkTenantDomain, unlinkTenantDomain } from '../ses-tenants/ses-tenant-links';
import { requireAccountKey, resolveTenant } from '../access/tenant-scope';
import { tenantGone, type TenantDomainDeps } from './deps';

// ---- tenants' domains (POST/GET /tenants/{tenant}/domains, DELETE /tenants/{tenant}/domains/{domain}) ----

/** The account's domain `ref` names (id or name); 404 otherwise. */
async function accountDomain(deps: TenantDomainDeps, principal: Principal, ref: string): Promise<Domain> {
  const stored = await deps.domains.findByRef(principal.account.id, ref);
  if (!stored) throw new NotFoundError('Domain', ref);
  return stored.domain;
}

/**
 * Gives an existing account domain (by name or id) to a tenant. Idempotent when the tenant already owns
 * it; 409 when another tenant does (two tenants racing for one domain: exactly one wins). Moving a
 * domain between the account and a tenant is the account's decision: a key of the whole account only.
 */
export async function giveDomainToTenant(
  deps: TenantDomainDeps,
  principal: Principal,
  tenantRef: string,
  input: AssignTenantDomainInput,
): Promise<Domain> {
  requireAccountKey(principal, 'give domains to tenants');
  const tenant = (await resolveTenant(deps, principal, tenantRef, 'path'))!;
  const domain = await accountDomain(deps, principal, input.domain);
  // A verified domain (an SES identity) is associated with the tenant's SES tenant BEFORE it changes hands,
  // so the tenant never owns a domain it cannot send from through SES (SES down: 503, nothing changed).
  const linked = domain.status === 'verified' && (await linkForGift(deps, tenant, domain));
  const outcome = await deps.domains.assignToTenant(principal.account.id, domain, tenant, deps.clock.now().toISOString());
  if (linked && outcome.kind !== 'assigned' && outcome.kind !== 'already')
    await undoGiftLink(deps, tenant, domain, outcome.kind === 'tenant_gone');
  switch (outcome.kind) {
    case 'assigned':
    case 'already':
      return outcome.domain;
    case 'not_found':
      throw new NotFoundError('Domain', input.domain);
    case 'tenant_gone':
      throw tenantGone(tenant);
    case 'other_tenant':
      throw new ConflictError(`${outcome.domain.name} is owned by another tenant (${outcome.domain.tenant}).`, 'conflict', {
        details: { domain: outcome.domain.name, domain_id: outcome.domain.id, tenant: outcome.domain.tenant },
        hint: `Return it to the account first: DELETE /tenants/${outcome.domain.tenant}/domains/${outcome.domain.id}.`,
      });
  }
}

async function linkForGift(deps: TenantDomainDeps, tenant: Tenant, domain: Domain): Promise<boolean> {
  try {
    await linkTenantDomain(deps.sesTenants, tenant.id, domain.name);
    return domain.tenant_id !== tenant.id;
  } catch (error) {
    logError('could not associate the domain with the SES tenant', error, {
      domain_id: domain.id,
      domain: domain.name,
      tenant_id: tenant.id,
    });
    throw new ServiceUnavailableError(
      `The mail provider could not let tenant ${tenant.external_id} send from ${domain.name}; the domain was not moved.`,
      {
        details: { domain: domain.name, domain_id: domain.id, tenant: tenant.external_id },
        hint: 'Retry the request in a moment.',
        cause: error,
      },
    );
  }
}

/** The gift was refused after the association: it goes again (with the SES tenant when the tenant is being deleted). Best effort. */
async function undoGiftLink(deps: TenantDomainDeps, tenant: Tenant, domain: Domain, tenantGoneToo: boolean): Promise<void> {
  if (!tenantGoneToo) return unlinkTenantDomain(deps.sesTenants, tenant.id, domain.name, { domain_id: domain.id });
  try {
    await deps.sesTenants.deleteTenant(tenant.id);
  } catch (error) {
    logError('could not delete the SES tenant of a tenant being deleted', error, { tenant_id: tenant.id });
  }
}

/** GET /tenants/{tenant}/domains: the same list as GET /domains?tenant=. A key limited to that tenant may read it. */
export async function listTenantDomains(
  deps: TenantDomainDeps,
  principal: Principal,
  tenantRef: string,
  page: PageRequest,
): Promise<Page<Domain>> {
  const tenant = (await resolveTenant(deps, principal, tenantRef, 'path'))!;
  return deps.domains.listForTenant(tenant.id, page);
}

/** Returns a tenant's domain to the account (every tenant may then send from it). 404 when that tenant does not own it. */
export async function returnDomainToAccount(
  deps: TenantDomainDeps,
  principal: Principal,
  tenantRef: string,
  domainRef: string,
): Promise<Domain> {
  requireAccountKey(principal, 'take domains from tenants');
  const tenant = (await resolveTenant(deps, principal, tenantRef, 'path'))!;
  const domain = await accountDomain(deps, principal, domainRef);
  if (domain.tenant_id !== tenant.id) throw new NotFoundError(`Domain of tenant ${tenant.external_id}`, domainRef);
  if (!(await deps.domains.releaseFromTenant(principal.account.id, domain, tenant.id, deps.clock.now().toISOString()))) {
    throw new NotFoundError(`Domain of tenant ${tenant.external_id}`, domainRef);
  }
  await unlinkTenantDomain(deps.sesTenants, tenant.id, domain.name, { domain_id: domain.id });
  return (await deps.domains.get(domain.id))?.domain ?? { ...domain, tenant_id: null, tenant: null };
}

/**
 * Deletion of a tenant: its domains return to the account, a page at a time from the membership
 * partition (strongly consistent), each in its own transaction; idempotent and resumable.
 * `shouldStop` ends the work early (a time budget): false when it stopped before finishing.
 */
export async function returnAllTenantDomains(
  deps: { domains: Pick<DomainTenants, 'tenantDomainIds' | 'releaseFromTenant' | 'forgetMembership'> & Pick<DomainCrud, 'get'> },
  tenant: Pick<Tenant, 'id' | 'account_id'>,
  now: string,
  shouldStop: () => boolean = () => false,
): Promise<boolean> {
  for (;;) {
    const ids = await deps.domains.tenantDomainIds(tenant.id, 25);
    if (ids.length === 0) return true;
    for (const id of ids) {
      const stored = await deps.domains.get(id);
      const ownedByTenant = stored && stored.domain.account_id === tenant.account_id && stored.domain.tenant_id === tenant.id;
      if (!ownedByTenant || !(await deps.domains.releaseFromTenant(tenant.account_id, stored.domain, tenant.id, now))) {
        // Not (or no longer) the tenant's: the membership alone is left over.
        await deps.domains.forgetMembership(tenant.id, id);
      }
    }
    if (shouldStop()) return false;
  }
}
