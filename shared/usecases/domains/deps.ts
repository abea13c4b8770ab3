/**
 * What the domain use cases use (./manage.ts, ./tenant-domains.ts, ./verify.ts), each taking the narrowest
 * part, and what they share: the domain a principal may see, a change raced by another.
 */
import { domainOwner } from '../../domain/domains/domain';
import type { DnsSettings } from '../../domain/domains/records';
import { ConflictError, NotFoundError } from '../../domain/errors';
import type { Tenant } from '../../domain/tenants/tenant';
import type { Clock } from '../../ports/clock';
import type { DnsResolver } from '../../ports/dns';
import type { Mailer } from '../../ports/mail';
import type { SesTenants } from '../../ports/ses-tenants';
import type { SecretBox } from '../../ports/secret-box';
import type { DomainCrud } from '../../adapters/store/domains/crud';
import type { DomainRepository } from '../../adapters/store/domains/repository';
import type { StoredDomain } from '../../adapters/store/domains/stored-domain';
import type { DomainHealthRepository } from '../../adapters/store/domain-health';
import type { Principal } from '../access/principal';
import type { TenantScopeDeps } from '../access/tenant-scope';
import { assertVisible } from '../access/visibility';

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
  /** Stored health checks: a domain just verified is checked within a minute (./health-on-verify.ts). */
  domainHealth: Pick<DomainHealthRepository, 'checkAt'>;
}

/** What POST /domains uses (imports create domains too: shared/usecases/imports). */
export type CreateDomainDeps = Pick<DomainDeps, 'domains' | 'tenants' | 'secretBox' | 'clock' | 'dnsSettings' | 'dashboardUrl'>;

/** What moving domains between the account and its tenants uses (the tenants group). */
export type TenantDomainDeps = Pick<DomainDeps, 'domains' | 'tenants' | 'clock' | 'sesTenants'>;

/** The tenant gone between the check and the write (being deleted): as if it had not been found. */
export function tenantGone(tenant: Tenant): NotFoundError {
  return new NotFoundError('Tenant', tenant.external_id);
}

/** The domain `domainId` if the principal may see it (404 otherwise). */
export async function owned(deps: { domains: Pick<DomainCrud, 'get'> }, principal: Principal, domainId: string): Promise<StoredDomain> {
  const stored = await deps.domains.get(domainId);
  assertVisible(principal, stored && domainOwner(stored.domain), 'Domain', domainId);
  return stored!;
}

/**
 * GET /domains/{id}; a domain whose records checked out while the provider was still verifying it is
 * re-checked there (the reconciler does the same on its own: ./complete-provider-verification.ts).
 */
export const CHANGE_ATTEMPTS = 10;

/** Receiving kept changing under the request (more than CHANGE_ATTEMPTS concurrent changes). */
export function changedMeanwhile(domainId: string): ConflictError {
  return new ConflictError(
    `Domain ${domainId} kept changing (inbound_enabled) while this request ran; nothing was changed by it.`,
    'conflict',
    {
      details: { domain_id: domainId },
      hint: 'Send the request again.',
    },
  );
}
