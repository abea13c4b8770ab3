/** What deleting a tenant undoes, in order (run by deleteTenant; each step idempotent and resumable): the tenants group and the dashboard. */
import { tenantCleanupSteps } from '../usecases/tenants/tenant-cleanup';
import type { AccessServices } from './access';
import type { DomainServices } from './domains';
import type { Platform } from './platform';
import type { EmailServices } from './emails';
import type { SuppressionServices } from './suppressions';
import type { TenantServices } from './tenants';
import type { WebhookServices } from './webhooks';
import type { SesServices } from './ses';

export function buildTenantCleanup(
  services: Pick<AccessServices, 'apiKeys' | 'smtpCredentials'> &
    Pick<DomainServices, 'domains'> &
    Pick<SuppressionServices, 'suppressions' | 'categoryOptOuts'> &
    Pick<WebhookServices, 'webhooks'> &
    Pick<TenantServices, 'tenants' | 'tenantScheduled'> &
    Pick<EmailServices, 'emails'> &
    Pick<Platform, 'clock'> &
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
