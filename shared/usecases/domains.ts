/**
 * Sending domains: add (with a fresh DKIM key and the records to publish), list, read, change delivery
 * settings, delete, and verify against real DNS, record by record, including a DKIM signing probe.
 */
import { createHash, randomBytes } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import { PLANS, upgradeUrl } from '../domain/accounts/plans';
import { dkimKeyContext, type Domain } from '../domain/domains/domain';
import {
  domainStatusAfterCheck,
  evaluateDkim,
  evaluateDmarc,
  evaluateMx,
  evaluateOwnership,
  evaluateReturnPath,
  evaluateSpf,
} from '../domain/domains/evaluate';
import { expectedRecords, INBOUND_SUBDOMAIN_LABEL, RETURN_PATH_LABEL, type DnsSettings } from '../domain/domains/records';
import type { CreateDomainInput, UpdateDomainInput } from '../domain/domains/schemas';
import { AppError, ConflictError, NotFoundError, UpstreamError } from '../domain/errors';
import { newId } from '../domain/ids';
import { generateDkimKey, newSelector } from '../dkim/keys';
import { signDkim } from '../dkim/sign';
import { verifyDkim } from '../dkim/verify';
import { logError } from '../log';
import type { Clock, DnsResolver, Mailer } from '../ports';
import type { SecretBox } from '../secrets/secret-box';
import type { DomainRepository, StoredDomain } from '../store/domains';
import type { Page } from '../store/cursor';
import type { PageRequest } from '../store/paginate';
import type { Principal } from './principal';
import { resolveTenant, type TenantScopeDeps } from './tenant-scope';
import { assertVisible } from './visibility';

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
}


/** A per-account, stable claim token: the same account sees the same instructions every time. */
function claimToken(accountId: string, name: string): string {
  return createHash('sha256').update(`${accountId}:${name}`).digest('base64url').slice(0, 32);
}

export async function createDomain(deps: DomainDeps, principal: Principal, input: CreateDomainInput): Promise<Domain> {
  await resolveTenant(deps, principal, input.tenant);
  const now = deps.clock.now();
  const id = newId('dom', now.getTime());
  const key = await generateDkimKey();
  const selector = newSelector(now);
  const ownershipToken = randomBytes(24).toString('base64url');
  const inboundSubdomain = input.inbound_enabled ? `${INBOUND_SUBDOMAIN_LABEL}.${input.name}` : null;
  const domain: Domain = {
    id,
    account_id: principal.account.id,
    name: input.name,
    status: 'pending',
    tenant: null,
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
  };
  const sealed = await deps.secretBox.seal(key.privateKeyPem, dkimKeyContext(id));
  const plan = PLANS[principal.account.plan];
  const outcome = await deps.domains.create(domain, sealed, plan.domains);
  if (outcome.ok) return domain;
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
  assertVisible(principal, stored?.domain, 'Domain', domainId);
  return stored!;
}

export async function getDomain(deps: DomainDeps, principal: Principal, domainId: string): Promise<Domain> {
  return (await owned(deps, principal, domainId)).domain;
}

export async function listDomains(deps: DomainDeps, principal: Principal, page: PageRequest, tenant?: string): Promise<Page<Domain>> {
  await resolveTenant(deps, principal, tenant);
  return deps.domains.list(principal.account.id, page);
}

export async function updateDomain(deps: DomainDeps, principal: Principal, domainId: string, changes: UpdateDomainInput): Promise<Domain> {
  const updated = await deps.domains.updateSettings(principal.account.id, domainId, changes, deps.clock.now().toISOString());
  if (!updated) throw new NotFoundError('Domain', domainId);
  return updated;
}

export async function deleteDomain(deps: DomainDeps, principal: Principal, domainId: string): Promise<void> {
  const { domain } = await owned(deps, principal, domainId);
  if (!(await deps.domains.delete(principal.account.id, domain))) throw new NotFoundError('Domain', domainId);
  // The domain is gone for us either way; a leftover provider identity is harmless (we never send from it).
  try {
    await deps.mailer.unregisterDomain(domain.name);
  } catch (error) {
    logError('could not remove the deleted domain from the mail provider', error, { domain_id: domain.id, domain: domain.name });
  }
}

/** Signs a probe message with the domain's private key and verifies it against the key found in DNS. */
async function signingProbe(deps: DomainDeps, stored: StoredDomain): Promise<{ ok: true } | { ok: false; reason: string }> {
  const { domain } = stored;
  try {
    const privateKeyPem = await deps.secretBox.open(stored.sealedPrivateKey, dkimKeyContext(domain.id));
    const probe = await new MailComposer({
      from: `dkim-check@${domain.name}`,
      to: `dkim-check@${domain.name}`,
      subject: 'DKIM signing check',
      text: `Signing check for ${domain.name} at ${deps.clock.now().toISOString()}`,
      messageId: `<dkim-check-${domain.id}@${domain.name}>`,
    })
      .compile()
      .build();
    const signed = await signDkim({ raw: probe, domain: domain.name, selector: domain.dkim_selector, privateKeyPem });
    const results = await verifyDkim(signed, (name) => deps.dns.txtChunks(name));
    const ours = results.find((r) => r.domain?.toLowerCase() === domain.name && r.selector === domain.dkim_selector);
    if (ours?.status === 'pass') return { ok: true };
    return { ok: false, reason: ours ? `${ours.status}${ours.reason ? `: ${ours.reason}` : ''}` : 'no signature result' };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

export async function verifyDomain(deps: DomainDeps, principal: Principal, domainId: string): Promise<Domain> {
  const stored = await owned(deps, principal, domainId);
  const { domain } = stored;
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
    if (!registered.ok) {
      const at = deps.clock.now().toISOString();
      const kept = await deps.domains.recordCheck(principal.account.id, domain.id, { status: domain.status, records, at });
      if (!kept) throw new NotFoundError('Domain', domainId);
      throw new UpstreamError(`The DNS records of ${domain.name} are correct, but the mail provider could not register the domain, so its status stays ${kept.status}. Retry verify in a moment.`, {
        details: { domain_id: domain.id, status: kept.status },
        hint: 'Call this endpoint again with {"action": "verify"}; the records need no change.',
        cause: registered.error,
      });
    }
  }
  const updated = await deps.domains.recordCheck(principal.account.id, domain.id, { status, records, at: deps.clock.now().toISOString() });
  if (!updated) throw new NotFoundError('Domain', domainId);
  return updated;
}

/** Makes the provider (SES) send from the domain: our DKIM key and selector, MAIL FROM `rp.<domain>`. */
async function registerWithProvider(deps: DomainDeps, stored: StoredDomain): Promise<{ ok: true } | { ok: false; error: unknown }> {
  const { domain } = stored;
  // The return-path record's name: the customer's CNAME to RETURN_PATH_HOST, which carries SES's MX and SPF.
  const mailFromDomain = `${RETURN_PATH_LABEL}.${domain.name}`;
  const privateKeyPem = await deps.secretBox.open(stored.sealedPrivateKey, dkimKeyContext(domain.id));
  try {
    await deps.mailer.registerDomain({ domain: domain.name, selector: domain.dkim_selector, privateKeyPem, mailFromDomain });
    return { ok: true };
  } catch (error) {
    logError('could not register the verified domain with the mail provider', error, { domain_id: domain.id, domain: domain.name });
    return { ok: false, error };
  }
}
