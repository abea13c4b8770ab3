/**
 * A tenant's sending status, as SES keeps it on the tenant's reputation entity (pure functions).
 *
 * Sources (docs/local-cloud/ses.md, "Tenants"):
 * - https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_Tenant.html : a tenant's SendingStatus is
 *   ENABLED, REINSTATED or DISABLED.
 * - https://docs.aws.amazon.com/ses/latest/dg/tenants.html and
 *   https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_UpdateReputationEntityCustomerManagedStatus.html :
 *   a tenant is paused (DISABLED) or resumed by UpdateReputationEntityCustomerManagedStatus on its
 *   reputation entity (ReputationEntityType RESOURCE, the tenant's ARN); the SES-managed status (from
 *   reputation findings) is never DISABLED locally, so the customer-managed status decides.
 * - SES does not document what a send through a DISABLED tenant answers. The emulator answers
 *   SendingPausedException (the error SES uses for a paused account or configuration set): its own
 *   choice, to be settled on AWS (`test:deployed`).
 */
import { SesError, badRequest } from './errors';
import type { SesTenant } from './types';
import type { Json } from './validate';

export const SENDING_STATUSES = ['ENABLED', 'REINSTATED', 'DISABLED'] as const;
export type SendingStatus = (typeof SENDING_STATUSES)[number];

/** The tenant's customer-managed status (absent: ENABLED, as created). */
export function sendingStatusOf(tenant: SesTenant): SendingStatus {
  return tenant.sendingStatus?.status ?? 'ENABLED';
}

export function parseSendingStatus(value: unknown, field = 'SendingStatus'): SendingStatus {
  if (typeof value !== 'string' || !(SENDING_STATUSES as readonly string[]).includes(value)) {
    throw badRequest(`${field} must be one of ${SENDING_STATUSES.join(', ')}.`);
  }
  return value as SendingStatus;
}

/** Only RESOURCE entities exist (ReputationEntityType in the SESv2 model). */
export function checkEntityType(type: string): void {
  if (type !== 'RESOURCE') throw badRequest(`ReputationEntityType '${type}' is invalid: use RESOURCE.`);
}

/** A send naming a DISABLED tenant is refused (the emulator's choice of code, see above). */
export function checkTenantCanSend(tenant: SesTenant): void {
  if (sendingStatusOf(tenant) === 'DISABLED')
    throw new SesError('SendingPausedException', `Sending is paused for tenant <${tenant.name}>.`);
}

/** GetReputationEntity's ReputationEntity for a tenant. */
export function reputationEntityBody(tenant: SesTenant): Json {
  const status = sendingStatusOf(tenant);
  const updated = Date.parse(tenant.sendingStatus?.updatedAt ?? tenant.createdAt) / 1000;
  return {
    ReputationEntityReference: tenant.arn,
    ReputationEntityType: 'RESOURCE',
    ReputationManagementPolicy: 'arn:aws:ses:::reputation-policy/standard',
    CustomerManagedStatus: { Status: status, LastUpdatedTimestamp: updated },
    AwsSesManagedStatus: { Status: 'ENABLED', LastUpdatedTimestamp: Date.parse(tenant.createdAt) / 1000 },
    SendingStatusAggregate: status,
  };
}
