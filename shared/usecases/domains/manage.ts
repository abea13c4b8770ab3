/**
 * Sending domains: add (with a fresh DKIM key and the records to publish), list, read, change delivery
 * settings and delete.
 */
import type { MtaStsHostingDeps } from './mta-sts/deps';
import { removeHostingWithReceiving } from './mta-sts/remove-with-receiving';
import type { LinkDomainDeps } from './link-domain/deps';
import { removeLinkDomainWithDomain } from './link-domain/remove-with-domain';
import { createHash, randomBytes } from 'node:crypto';
import { generateDkimKey, newSelector } from '../../lib/dkim/keys';
import { PLANS, upgradeUrl } from '../../domain/accounts/plans';
import { dkimKeyContext, type Domain } from '../../domain/domains/domain';
import { planInboundChange } from '../../domain/domains/inbound-change';
import { expectedRecords, inboundSubdomainOf } from '../../domain/domains/records';
import type { CreateDomainInput, UpdateDomainInput } from '../../domain/domains/schemas';
import { AppError, ConflictError, NotFoundError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { Tenant } from '../../domain/tenants/tenant';
import { logError } from '../../lib/log';
import type { Page } from '../../adapters/store/cursor';
import type { CreateDomainOutcome } from '../../adapters/store/domains/crud';
import type { PageRequest } from '../../adapters/store/paginate';
import { completeProviderVerification } from './complete-provider-verification';
import type { Principal } from '../access/principal';
import { unlinkTenantDomain } from '../ses-tenants/ses-tenant-links';
import { changeDmarcReports } from '../dmarc/report-settings';
import { resolveTenant } from '../access/tenant-scope';
import { limitedTenantOf, tenantRefOf } from '../access/visibility';
import { CHANGE_ATTEMPTS, changedMeanwhile, owned, tenantGone, type CreateDomainDeps, type DomainDeps } from './deps';

/** A per-account, stable claim token: the same account sees the same instructions every time. */
function claimToken(accountId: string, name: string): string {
  return createHash('sha256').update(`${accountId}:${name}`).digest('base64url').slice(0, 32);
}

/** The domain as added: pending, owned by the account (and the tenant), with the records to publish for its new key. */
function newDomain(
  deps: Pick<CreateDomainDeps, 'dnsSettings'>,
  added: { id: string; accountId: string; tenant: Tenant | null; input: CreateDomainInput; dkimPublicKey: string; now: Date },
): Domain {
  const { id, tenant, input, dkimPublicKey, now } = added;
  const selector = newSelector(now);
  const ownershipToken = randomBytes(24).toString('base64url');
  const inboundSubdomain = input.inbound_enabled ? inboundSubdomainOf(input.name) : null;
  return {
    id,
    account_id: added.accountId,
    name: input.name,
    status: 'pending',
    tenant_id: tenant?.id ?? null,
    tenant: tenant?.external_id ?? null,
    records: expectedRecords(
      { name: input.name, ownershipToken, dkimSelector: selector, dkimPublicKey, inboundSubdomain },
      deps.dnsSettings,
    ),
    dkim_selector: selector,
    dkim_public_key: dkimPublicKey,
    ownership_token: ownershipToken,
    open_tracking: false,
    click_tracking: false,
    tls_mode: 'opportunistic',
    inbound_enabled: Boolean(input.inbound_enabled),
    inbound_subdomain: inboundSubdomain,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    verified_at: null,
    last_checked_at: null,
    provider: null,
  };
}

/** Why the store refused the new domain: its tenant went (404), the plan's bound (403), or the name is taken (409, here or elsewhere). */
function creationRefused(
  deps: Pick<CreateDomainDeps, 'dashboardUrl'>,
  principal: Principal,
  name: string,
  outcome: Exclude<CreateDomainOutcome, { ok: true }>,
  tenant: Tenant | null,
): AppError {
  if (outcome.reason === 'tenant_gone') return tenantGone(tenant!);
  if (outcome.reason === 'limit') {
    const plan = PLANS[principal.account.plan];
    return new AppError(
      403,
      'plan_limit',
      `The ${principal.account.plan} plan includes ${plan.domains} domain${plan.domains === 1 ? '' : 's'}; delete one or upgrade to add more.`,
      {
        details: { limit: plan.domains, resource: 'domains', plan: principal.account.plan },
        upgradeUrl: upgradeUrl(deps.dashboardUrl),
      },
    );
  }
  if (outcome.ownerAccountId === principal.account.id) {
    return new ConflictError(`${name} is already added to this account.`, 'conflict', {
      details: { domain: name, domain_id: outcome.ownerDomainId },
    });
  }
  const token = claimToken(principal.account.id, name);
  return new ConflictError(`${name} is already attached to another account.`, 'conflict', {
    details: {
      domain: name,
      claim: { type: 'TXT', name: `_service-claim.${name}`, value: `service-claim=${token}` },
    },
    hint: `If you control ${name}, publish the TXT record in details.claim and contact support at ${deps.dashboardUrl}/support quoting the domain: after checking the record we move the domain to your account.`,
  });
}

/**
 * POST /domains. With `tenant` (or from a key limited to a tenant) the domain is owned by that tenant
 * from the start: its claim carries the tenant id in the same transaction.
 */
export async function createDomain(deps: CreateDomainDeps, principal: Principal, input: CreateDomainInput): Promise<Domain> {
  const tenant = await resolveTenant(deps, principal, tenantRefOf(principal, input.tenant));
  const now = deps.clock.now();
  const id = newId('dom', now.getTime());
  const key = await generateDkimKey();
  const domain = newDomain(deps, { id, accountId: principal.account.id, tenant, input, dkimPublicKey: key.publicKeyBase64, now });
  const sealed = await deps.secretBox.seal(key.privateKeyPem, dkimKeyContext(id));
  const outcome = await deps.domains.create(domain, sealed, PLANS[principal.account.plan].domains, tenant);
  if (outcome.ok) return domain;
  throw creationRefused(deps, principal, input.name, outcome, tenant);
}

export async function getDomain(deps: DomainDeps, principal: Principal, domainId: string): Promise<Domain> {
  const { domain } = await owned(deps, principal, domainId);
  const completion = await completeProviderVerification(deps, principal.account.id, domain);
  return completion.kind === 'recorded' || completion.kind === 'superseded' ? (completion.domain ?? domain) : domain;
}

/**
 * GET /domains: every domain of the account; with `tenant` (or from a key limited to a tenant) only
 * that tenant's (GET /tenants/{tenant}/domains is the same list).
 */
export async function listDomains(deps: DomainDeps, principal: Principal, page: PageRequest, tenantRef?: string): Promise<Page<Domain>> {
  const tenant = await resolveTenant(deps, principal, tenantRefOf(principal, tenantRef));
  if (tenant) return deps.domains.listForTenant(tenant.id, page);
  return deps.domains.list(principal.account.id, page);
}

/**
 * Attempts at a change planned from a domain that other requests change under it (each re-reads it): a
 * write refused by its condition means another one went through, so a request racing N others needs at
 * most N + 1; beyond this, 409 (retry).
 */
/**
 * PATCH /domains/{id}: delivery settings, and receiving (`inbound_enabled`: the receiving subdomain and
 * its MX record come and go with it, shared/domain/domains/inbound-change.ts), in one conditional write;
 * then DMARC reports (`dmarc_reports`), in one more.
 */
/** What changing a domain uses: turning receiving off removes its receiving subdomain's hosted MTA-STS policy. */
type UpdateDomainDeps = DomainDeps & Pick<MtaStsHostingDeps, 'mtaStsHosting'>;

export async function updateDomain(
  deps: UpdateDomainDeps,
  principal: Principal,
  domainId: string,
  changes: UpdateDomainInput,
): Promise<Domain> {
  const { dmarc_reports: dmarcReports, ...others } = changes;
  // DMARC reports: a write of its own (shared/usecases/dmarc/report-settings.ts), after the others.
  if (dmarcReports === undefined) return updateSettings(deps, principal, domainId, others);
  if (Object.keys(others).length > 0) await updateSettings(deps, principal, domainId, others);
  return changeDmarcReports(deps, principal, domainId, dmarcReports);
}

async function updateSettings(
  deps: UpdateDomainDeps,
  principal: Principal,
  domainId: string,
  changes: Omit<UpdateDomainInput, 'dmarc_reports'>,
): Promise<Domain> {
  const { inbound_enabled: inbound, ...settings } = changes;
  const owner = { accountId: principal.account.id, tenantId: limitedTenantOf(principal) };
  for (let attempt = 1; ; attempt++) {
    const before = inbound === undefined ? undefined : (await owned(deps, principal, domainId)).domain;
    const plan = before === undefined ? undefined : planInboundChange(before, inbound!, deps.dnsSettings);
    const updated = await deps.domains.updateSettings(owner, domainId, settings, deps.clock.now().toISOString(), plan);
    // Receiving turned off: the subdomain's hosted MTA-STS policy (naming our MX) is taken down too.
    if (updated && before?.inbound_subdomain && !updated.inbound_subdomain) await removeHostingWithReceiving(deps, before);
    if (updated) return updated;
    // Gone or not the key's: 404. Receiving changed since it was read: planned again from the domain as it is.
    if (plan === undefined) throw new NotFoundError('Domain', domainId);
    if (attempt >= CHANGE_ATTEMPTS) throw changedMeanwhile(domainId);
  }
}

/** Attempts at deleting a domain whose owner keeps changing under the request (each re-checks visibility). */
const DELETE_ATTEMPTS = 3;

export async function deleteDomain(
  deps: DomainDeps & Pick<MtaStsHostingDeps, 'mtaStsHosting'> & Pick<LinkDomainDeps, 'linkDomains'>,
  principal: Principal,
  domainId: string,
): Promise<void> {
  let domain: Domain;
  for (let attempt = 1; ; attempt++) {
    domain = (await owned(deps, principal, domainId)).domain;
    // Conditional on the owner read: a domain given to a tenant meanwhile is checked again.
    const outcome = await deps.domains.delete(principal.account.id, domain);
    if (outcome === 'deleted') break;
    if (outcome === 'not_found' || attempt >= DELETE_ATTEMPTS) throw new NotFoundError('Domain', domainId);
  }
  // Its hosted MTA-STS policy and its link domain go with it (the domain-health task deletes the hosts' AWS resources).
  await removeHostingWithReceiving(deps, domain);
  await removeLinkDomainWithDomain(deps, domain);
  // The domain is gone for us either way; a leftover provider identity is harmless (we never send from it).
  if (domain.tenant_id) await unlinkTenantDomain(deps.sesTenants, domain.tenant_id, domain.name, { domain_id: domain.id });
  try {
    await deps.mailer.unregisterDomain(domain.name);
  } catch (error) {
    logError('could not remove the deleted domain from the mail provider', error, { domain_id: domain.id, domain: domain.name });
  }
}
