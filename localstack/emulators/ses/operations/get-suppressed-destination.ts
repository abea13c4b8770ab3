/** GetSuppressedDestination (GET /v2/email/suppression/addresses/{EmailAddress}?TenantName): from the tenant's list when one is named. */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { epochSeconds } from '../tenants';
import type { OperationResult } from '../types';

export function getSuppressedDestination(state: SesState, request: SesRequest): OperationResult {
  const tenant = state.suppression.optTenant(request.query.get('TenantName'));
  const entry = state.suppression.requireEntry(tenant, request.params[0]!);
  return {
    body: {
      SuppressedDestination: {
        EmailAddress: entry.address,
        Reason: entry.reason,
        LastUpdateTime: epochSeconds(entry.lastUpdateTime),
        ...(entry.messageId ? { Attributes: { MessageId: entry.messageId, FeedbackId: entry.feedbackId } } : {}),
        ...(tenant ? { TenantName: tenant.name } : {}),
      },
    },
  };
}
