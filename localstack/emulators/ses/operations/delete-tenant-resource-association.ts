/** DeleteTenantResourceAssociation (POST /v2/email/tenants/resources/delete {TenantName, ResourceArn}). */
import { notFound } from '../errors';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { canonicalArn, checkTenantName, requireTenant } from '../tenants';
import type { OperationResult } from '../types';
import { reqString } from '../validate';

export async function deleteTenantResourceAssociation(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const tenant = requireTenant(state.store, checkTenantName(body.TenantName));
  const arn = reqString(body.ResourceArn, 'ResourceArn');
  const kept = tenant.resources.filter((r) => r.arn !== canonicalArn(arn));
  if (kept.length === tenant.resources.length) throw notFound(`Resource <${arn}> is not associated with tenant <${tenant.name}>.`);
  state.store.putTenant({ ...tenant, resources: kept });
  return { body: {} };
}
