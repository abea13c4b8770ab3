/**
 * ListTenants (POST /v2/email/tenants/list) as SES answers it: `{Tenants: TenantInfo[], NextToken?}`, a
 * TenantInfo being TenantName, TenantId, TenantArn, CreatedTimestamp (epoch seconds) and SendingStatus;
 * NextToken only while more follow; the optional Filter narrows by TENANT_NAME_CONTAINS (a substring) and
 * SENDING_STATUS (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_ListTenants.html; Filter and
 * SendingStatus as in @aws-sdk/client-sesv2's model). Stricter where SES documents nothing: a Filter key
 * outside ListTenantsFilterKey or a SENDING_STATUS outside SendingStatus is a BadRequestException, and
 * PageSize is 1-1000 (docs/local-cloud/ses.md).
 */
import { badRequest } from '../errors';
import { page } from '../paging';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { SENDING_STATUSES, sendingStatusOf } from '../tenant-status';
import { epochSeconds } from '../tenants';
import type { OperationResult } from '../types';
import { optObject, optString } from '../validate';

/** ListTenants' Filter keys (ListTenantsFilterKey), as in the SESv2 model. */
const LIST_TENANTS_FILTER_KEYS = ['TENANT_NAME_CONTAINS', 'SENDING_STATUS'];

export async function listTenants(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const filter = optObject(body.Filter, 'Filter') ?? {};
  const unknown = Object.keys(filter).find((key) => !LIST_TENANTS_FILTER_KEYS.includes(key));
  if (unknown) throw badRequest(`Filter key '${unknown}' is invalid: use ${LIST_TENANTS_FILTER_KEYS.join(' or ')}.`);
  const contains = optString(filter.TENANT_NAME_CONTAINS, 'Filter.TENANT_NAME_CONTAINS');
  const status = optString(filter.SENDING_STATUS, 'Filter.SENDING_STATUS');
  if (status !== undefined && !(SENDING_STATUSES as readonly string[]).includes(status))
    throw badRequest(`Filter.SENDING_STATUS '${status}' is invalid: use ${SENDING_STATUSES.join(', ')}.`);
  const matching = state.store
    .listTenants()
    .filter((t) => (contains === undefined || t.name.includes(contains)) && (status === undefined || sendingStatusOf(t) === status));
  const { items, next } = page(matching, body.NextToken, body.PageSize);
  return {
    body: {
      Tenants: items.map((t) => ({
        TenantName: t.name,
        TenantId: t.id,
        TenantArn: t.arn,
        CreatedTimestamp: epochSeconds(t.createdAt),
        SendingStatus: sendingStatusOf(t),
      })),
      ...(next ? { NextToken: next } : {}),
    },
  };
}
