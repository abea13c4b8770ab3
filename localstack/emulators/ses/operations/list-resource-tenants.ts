/** ListResourceTenants (POST /v2/email/resources/tenants/list {ResourceArn, NextToken, PageSize}): PageSize 1-100. */
import { page } from '../paging';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { canonicalArn, epochSeconds } from '../tenants';
import type { OperationResult } from '../types';
import { reqString } from '../validate';

export async function listResourceTenants(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const arn = canonicalArn(reqString(body.ResourceArn, 'ResourceArn'));
  const tenants = state.store.listTenants().filter((t) => t.resources.some((r) => r.arn === arn));
  const { items, next } = page(tenants, body.NextToken, body.PageSize, 100);
  return {
    body: {
      ResourceTenants: items.map((t) => ({
        TenantName: t.name,
        TenantId: t.id,
        ResourceArn: arn,
        AssociatedTimestamp: epochSeconds(t.createdAt),
      })),
      ...(next ? { NextToken: next } : {}),
    },
  };
}
