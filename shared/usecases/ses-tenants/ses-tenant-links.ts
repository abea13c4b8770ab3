/**
 * Our tenants as the provider's tenants (SES v2; docs/ses-tenants.md): the SES tenant is named by our
 * tenant id and may use our configuration sets and the identities of the domains the tenant owns. Each
 * helper is idempotent, so any of them can be repeated to repair what an earlier failure left undone.
 */
import { logError } from '../../lib/log';
import type { SesTenants } from '../../ports/ses-tenants';

/**
 * The SES tenant exists and may use both our configuration sets: the main one and its TLS-required twin
 * (a send through a tenant may use only resources associated with it, and a domain with `tls_mode:
 * enforced` sends through the twin: without it, SES refuses every such send of the tenant). A tenant
 * stored after this call is recorded as having the twin (`ses_tls_twin`, TenantRepository.create), so the
 * reconciler's sweep never associates it again (reconcile-ses-tenants.ts).
 */
export async function openSesTenant(sesTenants: Pick<SesTenants, 'ensureTenant' | 'associate'>, tenantId: string): Promise<void> {
  await sesTenants.ensureTenant(tenantId);
  await sesTenants.associate(tenantId, { kind: 'configuration_set' });
  await sesTenants.associate(tenantId, TLS_TWIN);
}

/** The TLS-required configuration set as a tenant resource. */
export const TLS_TWIN = { kind: 'configuration_set', tlsRequired: true } as const;

/**
 * The tenant may send from the domain's identity through SES. The SES tenant and its configuration set
 * association are ensured as well (one call each when they exist), so a tenant created before the
 * mapping, or one whose creation was interrupted, is repaired by its next verified domain.
 */
export async function linkTenantDomain(
  sesTenants: Pick<SesTenants, 'ensureTenant' | 'associate'>,
  tenantId: string,
  domain: string,
): Promise<void> {
  await openSesTenant(sesTenants, tenantId);
  await sesTenants.associate(tenantId, { kind: 'identity', name: domain });
}

/**
 * The tenant no longer uses the domain's identity. Best effort: a leftover association is harmless (sends
 * name the tenant only for the domains it owns in our store), so a failure is logged, never answered.
 */
export async function unlinkTenantDomain(
  sesTenants: SesTenants,
  tenantId: string,
  domain: string,
  fields: Record<string, unknown> = {},
): Promise<void> {
  try {
    await sesTenants.dissociate(tenantId, { kind: 'identity', name: domain });
  } catch (error) {
    logError('could not dissociate the domain identity from the SES tenant', error, { tenant_id: tenantId, domain, ...fields });
  }
}
