/**
 * CreateTenantResourceAssociation (POST /v2/email/tenants/resources {TenantName, ResourceArn}): an email
 * identity or configuration set of this emulator (its region and account), by ARN (../tenants.ts).
 */
import { alreadyExists } from '../errors';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { checkTenantName, requireTenant, resolveResource } from '../tenants';
import type { OperationResult } from '../types';

export async function createTenantResourceAssociation(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const tenant = requireTenant(state.store, checkTenantName(body.TenantName));
  const resource = resolveResource(state, body.ResourceArn);
  if (tenant.resources.some((r) => r.arn === resource.arn))
    throw alreadyExists(`Resource <${resource.arn}> is already associated with tenant <${tenant.name}>.`);
  state.store.putTenant({ ...tenant, resources: [...tenant.resources, resource] });
  return { body: {} };
}
