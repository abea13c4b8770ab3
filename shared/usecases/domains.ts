/**
 * Sending domains: add (with a fresh DKIM key and the records to publish), list, read, change delivery
 * settings, delete, and verify against real DNS, record by record, including a DKIM signing probe.
 */
import { createHash, randomBytes } from 'node:crypto';
import { PLANS, upgradeUrl } from '../domain/accounts/plans';
import { dkimKeyContext, domainOwner, type Domain } from '../domain/domains/domain';
import {
  domainStatusAfterCheck,
  evaluateDkim,
  evaluateDmarc,
  evaluateMx,
  evaluateOwnership,
  evaluateReturnPath,
  evaluateSpf,
} from '../domain/domains/evaluate';
import { planInboundChange } from '../domain/domains/inbound-change';
import { providerVerification, statusWithProvider } from '../domain/domains/provider-verification';
import { completeProviderVerification } from './complete-provider-verification';
import { expectedRecords, inboundSubdomainOf, RETURN_PATH_LABEL, type DnsSettings } from '../domain/domains/records';
import type { AssignTenantDomainInput, CreateDomainInput, UpdateDomainInput } from '../domain/domains/schemas';
import { AppError, ConflictError, NotFoundError, ServiceUnavailableError, UpstreamError } from '../domain/errors';
import type { Tenant } from '../domain/tenants/tenant';
import { newId } from '../domain/ids';
import { generateDkimKey, newSelector } from '../dkim/keys';
import { signDkim } from '../dkim/sign';
import { verifySignatures } from '../dkim/verify';
import { logError } from '../log';
import type { Clock, DnsResolver, Mailer, ProviderDomainState, SesTenants } from '../ports';
import type { SecretBox } from '../secrets/secret-box';
import type { DomainRepository, StoredDomain } from '../store/domains';
import type { Page } from '../store/cursor';
import type { PageRequest } from '../store/paginate';
import type { Principal } from './principal';
import { linkTenantDomain, unlinkTenantDomain } from './ses-tenant-links';
import { requireAccountKey, resolveTenant, type TenantScopeDeps } from './tenant-scope';
import { assertVisible, limitedTenantOf, tenantRefOf } from './visibility';

export interface DomainDeps {
  domains: DomainRepository;
  tenants: TenantScopeDeps['tenants'];
  secretBox: SecretBox;
  dns: DnsResolver;
  clock: Clock;
  dnsSettings: DnsSettings;
  dashboardUrl: string;
  /** The mail provider: a verified domain is registered there (SES identity), a deleted one removed. */
  mailer: Mailer;
  /** The provider's tenants: a tenant's verified domain is associated with its SES tenant (docs/ses-tenants.md). */
  sesTenants: SesTenants;
}

/** What POST /domains uses (imports create domains too: shared/usecases/imports). */
export type CreateDomainDeps = Pick<DomainDeps, 'domains' | 'tenants' | 'secretBox' | 'clock' | 'dnsSettings' | 'dashboardUrl'>;

/** What moving domains between the account and its tenants uses (the tenants group). */
export type TenantDomainDeps = Pick<DomainDeps, 'domains' | 'tenants' | 'clock' | 'sesTenants'>;


/** A per-account, stable claim token: the same account sees the same instructions every time. */
function claimToken(accountId: string, name: string): string {
  return createHash('sha256').update(`${accountId}:${name}`).digest('base64url').slice(0, 32);
}

/** The tenant gone between the check and the write (being deleted): as if it had not been found. */
function tenantGone(tenant: Tenant): NotFoundError {
  return new NotFoundError('Tenant', tenant.external_id);
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
  const selector = newSelector(now);
  const ownershipToken = randomBytes(24).toString('base64url');
  const inboundSubdomain = input.inbound_enabled ? inboundSubdomainOf(input.name) : null;
  const domain: Domain = {
    id,
    account_id: principal.account.id,
    name: input.name,
    status: 'pending',
    tenant_id: tenant?.id ?? null,
    tenant: tenant?.external_id ?? null,
    records: expectedRecords({ name: input.name, ownershipToken, dkimSelector: selector, dkimPublicKey: key.publicKeyBase64, inboundSubdomain }, deps.dnsSettings),
    dkim_selector: selector,
    dkim_public_key: key.publicKeyBase64,
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
  const sealed = await deps.secretBox.seal(key.privateKeyPem, dkimKeyContext(id));
  const plan = PLANS[principal.account.plan];
  const outcome = await deps.domains.create(domain, sealed, plan.domains, tenant);
  if (outcome.ok) return domain;
  if (outcome.reason === 'tenant_gone') throw tenantGone(tenant!);
  if (outcome.reason === 'limit') {
    throw new AppError(403, 'plan_limit', `The ${principal.account.plan} plan includes ${plan.domains} domain${plan.domains === 1 ? '' : 's'}; delete one or upgrade to add more.`, {
      details: { limit: plan.domains, resource: 'domains', plan: principal.account.plan },
      upgradeUrl: upgradeUrl(deps.dashboardUrl),
    });
  }
  if (outcome.ownerAccountId === principal.account.id) {
    throw new ConflictError(`${input.name} is already added to this account.`, 'conflict', { details: { domain: input.name, domain_id: outcome.ownerDomainId } });
  }
  const token = claimToken(principal.account.id, input.name);
  throw new ConflictError(`${input.name} is already attached to another account.`, 'conflict', {
    details: {
      domain: input.name,
      claim: { type: 'TXT', name: `_service-claim.${input.name}`, value: `service-claim=${token}` },
    },
    hint: `If you control ${input.name}, publish the TXT record in details.claim and contact support at ${deps.dashboardUrl}/support quoting the domain: after checking the record we move the domain to your account.`,
  });
}

async function owned(deps: DomainDeps, principal: Principal, domainId: string): Promise<StoredDomain> {
  const stored = await deps.domains.get(domainId);
  assertVisible(principal, stored && domainOwner(stored.domain), 'Domain', domainId);
  return stored!;
}

/**
 * GET /domains/{id}; a domain whose records checked out while the provider was still verifying it is
 * re-checked there (the reconciler does the same on its own: ./complete-provider-verification.ts).
 */
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
const CHANGE_ATTEMPTS = 10;

/** Receiving kept changing under the request (more than CHANGE_ATTEMPTS concurrent changes). */
function changedMeanwhile(domainId: string): ConflictError {
  return new ConflictError(`Domain ${domainId} kept changing (inbound_enabled) while this request ran; nothing was changed by it.`, 'conflict', {
    details: { domain_id: domainId },
    hint: 'Send the request again.',
  });
}

/**
 * PATCH /domains/{id}: delivery settings, and receiving (`inbound_enabled`: the receiving subdomain and
 * its MX record come and go with it, shared/domain/domains/inbound-change.ts), in one conditional write.
 */
export async function updateDomain(deps: DomainDeps, principal: Principal, domainId: string, changes: UpdateDomainInput): Promise<Domain> {
  const { inbound_enabled: inbound, ...settings } = changes;
  const owner = { accountId: principal.account.id, tenantId: limitedTenantOf(principal) };
  for (let attempt = 1; ; attempt++) {
    const plan = inbound === undefined ? undefined : planInboundChange((await owned(deps, principal, domainId)).domain, inbound, deps.dnsSettings);
    const updated = await deps.domains.updateSettings(owner, domainId, settings, deps.clock.now().toISOString(), plan);
    if (updated) return updated;
    // Gone or not the key's: 404. Receiving changed since it was read: planned again from the domain as it is.
    if (plan === undefined) throw new NotFoundError('Domain', domainId);
    if (attempt >= CHANGE_ATTEMPTS) throw changedMeanwhile(domainId);
  }
}

/** Attempts at deleting a domain whose owner keeps changing under the request (each re-checks visibility). */
const DELETE_ATTEMPTS = 3;

export async function deleteDomain(deps: DomainDeps, principal: Principal, domainId: string): Promise<void> {
  let domain: Domain;
  for (let attempt = 1; ; attempt++) {
    domain = (await owned(deps, principal, domainId)).domain;
    // Conditional on the owner read: a domain given to a tenant meanwhile is checked again.
    const outcome = await deps.domains.delete(principal.account.id, domain);
    if (outcome === 'deleted') break;
    if (outcome === 'not_found' || attempt >= DELETE_ATTEMPTS) throw new NotFoundError('Domain', domainId);
  }
  // The domain is gone for us either way; a leftover provider identity is harmless (we never send from it).
  if (domain.tenant_id) await unlinkTenantDomain(deps.sesTenants, domain.tenant_id, domain.name, { domain_id: domain.id });
  try {
    await deps.mailer.unregisterDomain(domain.name);
  } catch (error) {
    logError('could not remove the deleted domain from the mail provider', error, { domain_id: domain.id, domain: domain.name });
  }
}

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
export async function giveDomainToTenant(deps: TenantDomainDeps, principal: Principal, tenantRef: string, input: AssignTenantDomainInput): Promise<Domain> {
  requireAccountKey(principal, 'give domains to tenants');
  const tenant = (await resolveTenant(deps, principal, tenantRef, 'path'))!;
  const domain = await accountDomain(deps, principal, input.domain);
  // A verified domain (an SES identity) is associated with the tenant's SES tenant BEFORE it changes hands,
  // so the tenant never owns a domain it cannot send from through SES (SES down: 503, nothing changed).
  const linked = domain.status === 'verified' && (await linkForGift(deps, tenant, domain));
  const outcome = await deps.domains.assignToTenant(principal.account.id, domain, tenant, deps.clock.now().toISOString());
  if (linked && outcome.kind !== 'assigned' && outcome.kind !== 'already') await undoGiftLink(deps, tenant, domain, outcome.kind === 'tenant_gone');
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
    logError('could not associate the domain with the SES tenant', error, { domain_id: domain.id, domain: domain.name, tenant_id: tenant.id });
    throw new ServiceUnavailableError(`The mail provider could not let tenant ${tenant.external_id} send from ${domain.name}; the domain was not moved.`, {
      details: { domain: domain.name, domain_id: domain.id, tenant: tenant.external_id },
      hint: 'Retry the request in a moment.',
      cause: error,
    });
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
export async function listTenantDomains(deps: TenantDomainDeps, principal: Principal, tenantRef: string, page: PageRequest): Promise<Page<Domain>> {
  const tenant = (await resolveTenant(deps, principal, tenantRef, 'path'))!;
  return deps.domains.listForTenant(tenant.id, page);
}

/** Returns a tenant's domain to the account (every tenant may then send from it). 404 when that tenant does not own it. */
export async function returnDomainToAccount(deps: TenantDomainDeps, principal: Principal, tenantRef: string, domainRef: string): Promise<Domain> {
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
  deps: { domains: Pick<DomainRepository, 'tenantDomainIds' | 'get' | 'releaseFromTenant' | 'forgetMembership'> },
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

/**
 * The probe: a small plain-text message from the domain (ASCII headers, 7bit body), built here rather than
 * with the MIME composer (shared/mime/compose.ts) since nothing but the signature check ever reads it.
 */
export function probeMessage(domain: Pick<Domain, 'id' | 'name'>, now: Date): Buffer {
  return Buffer.from(
    [
      `From: dkim-check@${domain.name}`,
      `To: dkim-check@${domain.name}`,
      'Subject: DKIM signing check',
      `Message-ID: <dkim-check-${domain.id}@${domain.name}>`,
      `Date: ${now.toUTCString().replace('GMT', '+0000')}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 7bit',
      '',
      `Signing check for ${domain.name} at ${now.toISOString()}`,
      '',
    ].join('\r\n'),
    'latin1',
  );
}

/** Signs a probe message with the domain's private key and verifies it against the key found in DNS. */
async function signingProbe(deps: DomainDeps, stored: StoredDomain): Promise<{ ok: true } | { ok: false; reason: string }> {
  const { domain } = stored;
  try {
    const privateKeyPem = await deps.secretBox.open(stored.sealedPrivateKey, dkimKeyContext(domain.id));
    const signed = await signDkim({ raw: probeMessage(domain, deps.clock.now()), domain: domain.name, selector: domain.dkim_selector, privateKeyPem });
    const results = await verifySignatures(signed, (name) => deps.dns.txtChunks(name), deps.clock.now());
    const ours = results.find((r) => r.domain?.toLowerCase() === domain.name && r.selector === domain.dkim_selector);
    if (ours?.status === 'pass') return { ok: true };
    return { ok: false, reason: ours ? `${ours.status}${ours.reason ? `: ${ours.reason}` : ''}` : 'no signature result' };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

/**
 * POST /domains/{id} {"action": "verify"}. The check is recorded only while receiving is as it was
 * checked: when a PATCH turned it on or off meanwhile (the MX record came or went), it runs again.
 */
export async function verifyDomain(deps: DomainDeps, principal: Principal, domainId: string): Promise<Domain> {
  for (let attempt = 1; ; attempt++) {
    const stored = await owned(deps, principal, domainId);
    const checked = await checkDomain(deps, principal, stored);
    if (checked) return checked;
    // Changed meanwhile: checked again from the domain as it is now (gone: 404 from `owned`).
    if (attempt >= CHANGE_ATTEMPTS) throw changedMeanwhile(domainId);
  }
}

/** One verification of the domain as read; null when it could not be recorded (the domain changed or went). */
async function checkDomain(deps: DomainDeps, principal: Principal, stored: StoredDomain): Promise<Domain | null> {
  const { domain } = stored;
  // Stored before inbound existed: no flag, off.
  const inbound_enabled = Boolean(domain.inbound_enabled);
  const records = await Promise.all(
    domain.records.map(async (record) => {
      switch (record.purpose) {
        case 'ownership':
          return evaluateOwnership(record, await deps.dns.txt(record.name));
        case 'dkim':
          return evaluateDkim(record, await deps.dns.txt(record.name), domain.dkim_public_key);
        case 'return_path':
          return evaluateReturnPath(record, await deps.dns.cname(record.name));
        case 'spf':
          return evaluateSpf(record, await deps.dns.txt(record.name), deps.dnsSettings.spfInclude);
        case 'dmarc':
          return evaluateDmarc(record, await deps.dns.txt(record.name));
        case 'inbound_mx':
          return evaluateMx(record, await deps.dns.mx(record.name));
      }
    }),
  );
  // The published key matches: confirm the service can actually sign with it.
  const dkim = records.find((record) => record.purpose === 'dkim');
  if (dkim && dkim.status === 'verified') {
    const probe = await signingProbe(deps, stored);
    if (!probe.ok) {
      dkim.status = 'invalid';
      dkim.message = `The key published at ${dkim.name} matches, but a message signed with the domain's key did not verify against DNS (${probe.reason}). Check that the record is published exactly as given.`;
    }
  }
  const status = domainStatusAfterCheck(domain.status, records);
  // No half state: the domain is verified in our store only once the provider can send from it.
  if (status === 'verified') {
    const registered = await registerWithProvider(deps, stored);
    const at = deps.clock.now().toISOString();
    if (!registered.ok) {
      const kept = await deps.domains.recordCheck(principal.account.id, domain.id, { status: domain.status, records, at, inbound_enabled });
      if (!kept) return null;
      throw new UpstreamError(`The DNS records of ${domain.name} are correct, but the mail provider could not register the domain, so its status stays ${kept.status}. Retry verify in a moment.`, {
        details: { domain_id: domain.id, status: kept.status },
        hint: 'Call this endpoint again with {"action": "verify"}; the records need no change.',
        cause: registered.error,
      });
    }
    // Registered: verified once the provider can send from it; until then the status it had (`provider` says why).
    const provider = providerVerification(registered.state, at);
    return deps.domains.recordCheck(principal.account.id, domain.id, { status: statusWithProvider(domain.status, provider), records, at, inbound_enabled, provider });
  }
  return deps.domains.recordCheck(principal.account.id, domain.id, { status, records, at: deps.clock.now().toISOString(), inbound_enabled });
}

/**
 * Makes the provider (SES) send from the domain: our DKIM key and selector, MAIL FROM `rp.<domain>`; a
 * tenant's domain is then associated with the tenant's SES tenant (the identity exists now).
 */
async function registerWithProvider(deps: DomainDeps, stored: StoredDomain): Promise<{ ok: true; state: ProviderDomainState } | { ok: false; error: unknown }> {
  const { domain } = stored;
  // The return-path record's name: the customer's CNAME to RETURN_PATH_HOST, which carries SES's MX and SPF.
  const mailFromDomain = `${RETURN_PATH_LABEL}.${domain.name}`;
  const privateKeyPem = await deps.secretBox.open(stored.sealedPrivateKey, dkimKeyContext(domain.id));
  try {
    const state = await deps.mailer.registerDomain({ domain: domain.name, selector: domain.dkim_selector, privateKeyPem, mailFromDomain });
    if (domain.tenant_id) await linkTenantDomain(deps.sesTenants, domain.tenant_id, domain.name);
    return { ok: true, state };
  } catch (error) {
    logError('could not register the verified domain with the mail provider', error, { domain_id: domain.id, domain: domain.name });
    return { ok: false, error };
  }
}
