/**
 * A tenant's suppression attributes (POST /v2/email/tenant/suppression {TenantName, SuppressionScope,
 * SuppressedReasons}): its scope (ACCOUNT, or TENANT: its own list) and reasons, given together or both
 * null (../suppression-list.ts).
 */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { parseTenantSuppression } from '../suppression-list';
import { requireTenant } from '../tenants';
import type { OperationResult } from '../types';
import { reqString } from '../validate';

export async function putTenantSuppressionAttributes(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const tenant = requireTenant(state.store, reqString(body.TenantName, 'TenantName'));
  const suppression = parseTenantSuppression(body, '');
  const { suppression: _old, ...rest } = tenant;
  state.store.putTenant(suppression ? { ...rest, suppression } : rest);
  return { body: {} };
}
