/**
 * UpdateReputationEntityCustomerManagedStatus (PUT /v2/email/reputation/entities/{Type}/{Reference}/customer-managed-status):
 * pauses (DISABLED) or resumes (ENABLED, REINSTATED) a tenant named by its ARN (../tenant-status.ts). The
 * emulator models tenants' reputation entities only: another resource's ARN is a NotFoundException.
 */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { checkEntityType, parseSendingStatus } from '../tenant-status';
import { tenantByArn } from '../tenants';
import type { OperationResult } from '../types';

export async function updateReputationEntityCustomerManagedStatus(state: SesState, request: SesRequest): Promise<OperationResult> {
  const [type, reference] = request.params as [string, string];
  const body = await request.json();
  checkEntityType(type);
  const status = parseSendingStatus(body.SendingStatus);
  const tenant = tenantByArn(state.store, reference);
  state.store.putTenant({ ...tenant, sendingStatus: { status, updatedAt: new Date().toISOString() } });
  state.log(`tenant ${tenant.name}: sending status ${status}`);
  return { body: {} };
}
