/**
 * PutSuppressedDestination (PUT /v2/email/suppression/addresses {EmailAddress, Reason, TenantName}): the
 * address added to (or updated on) the account's list, or the tenant's when one is named.
 */
import { badRequest } from '../errors';
import { isValidAddress } from '../mime';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { SUPPRESSION_REASONS, type SuppressionReason } from '../suppression-file';
import type { OperationResult } from '../types';
import { reqString } from '../validate';

export async function putSuppressedDestination(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const address = reqString(body.EmailAddress, 'EmailAddress');
  if (!isValidAddress(address)) throw badRequest(`EmailAddress '${address}' is not a valid email address.`);
  const reason = reqString(body.Reason, 'Reason');
  if (!(SUPPRESSION_REASONS as readonly string[]).includes(reason))
    throw badRequest(`Reason '${reason}' is invalid: use BOUNCE or COMPLAINT.`);
  const tenant = state.suppression.optTenant(body.TenantName);
  state.suppression.upsert(tenant, [{ address, reason: reason as SuppressionReason, lastUpdateTime: new Date().toISOString() }]);
  return { body: {} };
}
