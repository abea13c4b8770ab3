/** What deleting a tenant undoes, in order (run by deleteTenant; each step idempotent and resumable): the tenants group and the dashboard. */
import { tenantCleanupSteps } from '../usecases/tenants/tenant-cleanup';
import type { CoreServices } from './core';
import type { SesServices } from './ses';

export function buildTenantCleanup(
  services: Pick<
    CoreServices,
    | 'apiKeys'
    | 'smtpCredentials'
    | 'domains'
    | 'suppressions'
    | 'categoryOptOuts'
    | 'webhooks'
    | 'tenants'
    | 'emails'
    | 'tenantScheduled'
    | 'clock'
  > &
    Pick<SesServices, 'sesTenants'>,
) {
  const {
    apiKeys,
    smtpCredentials,
    domains,
    suppressions,
    categoryOptOuts,
    webhooks,
    tenants,
    emails,
    tenantScheduled,
    sesTenants,
    clock,
  } = services;
  return {
    tenantCleanup: tenantCleanupSteps({
      apiKeys,
      smtpCredentials,
      domains,
      suppressions,
      categoryOptOuts,
      webhooks,
      tenants,
      emails,
      tenantScheduled,
      sesTenants,
      clock,
    }),
  };
}

export type TenantCleanupServices = ReturnType<typeof buildTenantCleanup>;
