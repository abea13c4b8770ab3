/** ListTenantResources (POST /v2/email/tenants/resources/list {TenantName, Filter: {RESOURCE_TYPE}, NextToken, PageSize}). */
import { page } from '../paging';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { checkTenantName, requireTenant } from '../tenants';
import type { OperationResult } from '../types';
import { optObject, optString } from '../validate';

export async function listTenantResources(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const tenant = requireTenant(state.store, checkTenantName(body.TenantName));
  const filter = optObject(body.Filter, 'Filter');
  const type = filter ? optString(filter.RESOURCE_TYPE, 'Filter.RESOURCE_TYPE') : undefined;
  const resources = tenant.resources.filter((r) => !type || r.type === type);
  const { items, next } = page(resources, body.NextToken, body.PageSize);
  return {
    body: { TenantResources: items.map((r) => ({ ResourceType: r.type, ResourceArn: r.arn })), ...(next ? { NextToken: next } : {}) },
  };
}
