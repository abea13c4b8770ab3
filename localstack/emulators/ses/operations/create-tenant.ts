/**
 * CreateTenant (POST /v2/email/tenants {TenantName, Tags, SuppressionAttributes}): a tenant with a new id
 * and ARN, no resources; 400 AlreadyExistsException for a name in use (names are case-sensitive, as in SES).
 */
import { randomUUID } from 'node:crypto';
import { alreadyExists } from '../errors';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { tenantSuppressionOf } from '../suppression-list';
import { checkTenantName, tenantBody } from '../tenants';
import type { OperationResult, SesTenant } from '../types';
import { optArray } from '../validate';

export async function createTenant(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const name = checkTenantName(body.TenantName);
  if (state.store.getTenant(name)) throw alreadyExists(`Tenant <${name}> already exists.`);
  const tags = optArray(body.Tags, 'Tags');
  const suppression = tenantSuppressionOf(body);
  const id = `tn-${randomUUID().replace(/-/g, '').slice(0, 24)}`;
  const tenant: SesTenant = {
    name,
    id,
    arn: `arn:aws:ses:${state.region}:${state.accountId}:tenant/${name}/${id}`,
    createdAt: new Date().toISOString(),
    tags,
    resources: [],
    ...(suppression ? { suppression } : {}),
  };
  state.store.putTenant(tenant);
  state.log(`tenant ${name} created`);
  return { body: tenantBody(tenant) };
}
