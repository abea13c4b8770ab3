/**
 * Tenant use cases: create (unique external_id, plan limit, both enforced by DynamoDB), list, read,
 * change (pause, resume, settings) and delete (a resumable cascade). All of them need tenants enabled on
 * the account; the HTTP door requires a full-access key for everything but reading one's own tenant.
 */
import { PLANS, upgradeUrl } from '../../domain/accounts/plans';
import { AppError, ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { CreateTenantInput, UpdateTenantInput } from '../../domain/tenants/schemas';
import type { Tenant, TenantStatus } from '../../domain/tenants/tenant';
import { logError } from '../../lib/log';
import type { Clock } from '../../ports/clock';
import type { SesTenants } from '../../ports/ses-tenants';
import type { Page } from '../../adapters/store/cursor';
import type { PageRequest } from '../../adapters/store/paginate';
import type { TenantRepository } from '../../adapters/store/tenants';
import type { Principal } from '../access/principal';
import { openSesTenant } from '../ses-tenants/ses-tenant-links';
import { checkTenantAllowed, checkTenantsEnabled, requireAccountKey, resolveStoredTenant } from '../access/tenant-scope';

/**
 * One step of a tenant's deletion cascade (its keys, suppressions, domains, webhook filters). Each is
 * idempotent: a DELETE interrupted half-way is finished by the next one.
 */
export type TenantCleanupStep = (tenant: Tenant, now: Date) => Promise<void>;

export interface TenantDeps {
  tenants: TenantRepository;
  clock: Clock;
  dashboardUrl: string;
  /** Run in order by deleteTenant, between marking the tenant and removing it. */
  tenantCleanup?: readonly TenantCleanupStep[];
  /** The provider's tenants (SES v2): each tenant has one, created before the tenant is stored. */
  sesTenants: SesTenants;
}

/**
 * The SES tenant of a new tenant, with our configuration set associated, BEFORE the tenant is stored: SES
 * down is a 503 and nothing is stored. The id is fresh, so a retry creates another SES tenant (an
 * unused one is left behind only by a crash between the two).
 */
async function openProviderTenant(deps: Pick<TenantDeps, 'sesTenants'>, tenant: Tenant): Promise<void> {
  try {
    await openSesTenant(deps.sesTenants, tenant.id);
  } catch (error) {
    logError('could not create the SES tenant', error, { tenant_id: tenant.id, account_id: tenant.account_id });
    throw new ServiceUnavailableError(`The mail provider could not set up tenant ${tenant.external_id}; nothing was created.`, {
      details: { external_id: tenant.external_id },
      hint: 'Retry the request in a moment.',
      cause: error,
    });
  }
}

/** A tenant the store refused (duplicate, plan limit): its fresh SES tenant goes again. Best effort. */
async function closeUnusedProviderTenant(deps: Pick<TenantDeps, 'sesTenants'>, tenant: Tenant): Promise<void> {
  try {
    await deps.sesTenants.deleteTenant(tenant.id);
  } catch (error) {
    logError('could not delete the unused SES tenant', error, { tenant_id: tenant.id, account_id: tenant.account_id });
  }
}

export async function createTenant(deps: TenantDeps, principal: Principal, input: CreateTenantInput): Promise<Tenant> {
  checkTenantsEnabled(principal, 'path');
  requireAccountKey(principal, 'create tenants');
  const now = deps.clock.now().toISOString();
  const tenant: Tenant = {
    id: newId('ten'),
    account_id: principal.account.id,
    external_id: input.external_id,
    name: input.name ?? input.external_id,
    status: 'active',
    paused_reason: null,
    paused_at: null,
    pause_source: null,
    default_from_domain: input.default_from_domain ?? null,
    stream_policy: input.stream_policy ?? 'all',
    daily_limit: input.daily_limit ?? null,
    metadata: input.metadata ?? null,
    created_at: now,
    updated_at: now,
  };
  const limit = PLANS[principal.account.plan].tenants;
  await openProviderTenant(deps, tenant);
  // A failed write may still have landed (a timeout): its SES tenant stays.
  const outcome = await deps.tenants.create(tenant, limit);
  if (outcome.kind === 'created') return tenant;
  await closeUnusedProviderTenant(deps, tenant);
  if (outcome.kind === 'duplicate') {
    throw new ConflictError(`A tenant with external_id ${input.external_id} already exists.`, 'conflict', {
      details: { external_id: input.external_id },
      hint: `Use it (GET /tenants/${input.external_id}), or pick another external_id.`,
    });
  }
  throw new AppError(
    403,
    'plan_limit',
    `The ${principal.account.plan} plan includes ${limit} tenant${limit === 1 ? '' : 's'}; delete one or upgrade to add more.`,
    {
      details: { tenant_limit: limit, resource: 'tenants', plan: principal.account.plan },
      upgradeUrl: upgradeUrl(deps.dashboardUrl),
    },
  );
}

/** The tenant at `{tenant}` (external_id or id), visible to this caller; 404 otherwise. */
export async function getTenant(deps: Pick<TenantDeps, 'tenants'>, principal: Principal, ref: string): Promise<Tenant> {
  return (await resolveStoredTenant(deps, principal, ref, 'path')).tenant;
}

export function listTenants(
  deps: Pick<TenantDeps, 'tenants'>,
  principal: Principal,
  page: PageRequest,
  status?: TenantStatus,
): Promise<Page<Tenant>> {
  checkTenantsEnabled(principal, 'path');
  requireAccountKey(principal, 'list tenants');
  return deps.tenants.list(principal.account.id, page, status);
}

export async function updateTenant(deps: TenantDeps, principal: Principal, ref: string, input: UpdateTenantInput): Promise<Tenant> {
  checkTenantsEnabled(principal, 'path');
  requireAccountKey(principal, 'change tenants');
  const current = await getTenant(deps, principal, ref);
  const now = deps.clock.now().toISOString();
  const { status, reason, external_id: _immutable, ...settings } = input;
  const changes: Partial<Tenant> = { ...settings };
  if (status === 'paused') {
    // Pausing again only updates the reason; the first pause's time and source stay.
    Object.assign(changes, {
      status,
      paused_reason: reason ?? current.paused_reason ?? null,
      paused_at: current.status === 'paused' ? current.paused_at : now,
      pause_source: current.status === 'paused' ? current.pause_source : 'manual',
    });
  } else if (status === 'active') {
    Object.assign(changes, { status, paused_reason: null, paused_at: null, pause_source: null });
  }
  // Resuming a tenant the service paused is for an operator (the admin CLI): checked by the write itself.
  const resuming = status === 'active' && current.status === 'paused';
  const updated = await deps.tenants.update(current, changes, now, resuming ? { pausedBy: 'automated' } : undefined);
  if (updated) return updated;
  const again = await deps.tenants.find(principal.account.id, current.external_id);
  if (!again || again.deleting) throw new NotFoundError('Tenant', ref);
  throw new ForbiddenError(
    `Tenant ${current.external_id} was paused by the service (${again.tenant.paused_reason ?? 'bounce or complaint rate'}); it cannot be resumed through the API.`,
    'forbidden',
    {
      details: { pause_source: 'automated', paused_reason: again.tenant.paused_reason },
      hint: `Fix the cause, then contact support at ${deps.dashboardUrl}/support to resume it.`,
    },
  );
}

/**
 * Deletes a tenant: marks it (it disappears at once for every request), runs the cleanup steps, then
 * removes it and frees its plan slot. A tenant already marked is finished, not refused: a DELETE that
 * was interrupted can simply be sent again.
 */
export async function deleteTenant(deps: TenantDeps, principal: Principal, ref: string): Promise<Tenant> {
  checkTenantsEnabled(principal, 'path');
  requireAccountKey(principal, 'delete tenants');
  const stored = await deps.tenants.find(principal.account.id, ref);
  if (!stored) throw new NotFoundError('Tenant', ref);
  const { tenant } = stored;
  checkTenantAllowed(principal, tenant);
  const now = deps.clock.now();
  if (!stored.deleting && !(await deps.tenants.markDeleting(tenant, now.toISOString()))) throw new NotFoundError('Tenant', ref);
  for (const step of deps.tenantCleanup ?? []) await step(tenant, now);
  await deps.tenants.remove(tenant);
  return tenant;
}

/**
 * An operator resumes a tenant (the admin CLI): also one the service paused, which the API refuses.
 * Returns the tenant as it is now (already active: unchanged).
 */
export async function resumeTenantAsOperator(deps: Pick<TenantDeps, 'tenants' | 'clock'>, accountId: string, ref: string): Promise<Tenant> {
  const stored = await deps.tenants.find(accountId, ref);
  if (!stored || stored.deleting) throw new NotFoundError('Tenant', ref);
  if (stored.tenant.status === 'active') return stored.tenant;
  const resumed = await deps.tenants.update(
    stored.tenant,
    { status: 'active', paused_reason: null, paused_at: null, pause_source: null },
    deps.clock.now().toISOString(),
  );
  if (!resumed) throw new NotFoundError('Tenant', ref);
  return resumed;
}
