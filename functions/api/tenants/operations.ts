/** The operations of the tenants group (Tenants). */
import { assignTenantDomainSchema } from '#shared/domain/domains/schemas';
import { createTenantSchema, listTenantsQuerySchema, tenantStatsQuerySchema, updateTenantSchema } from '#shared/domain/tenants/schemas';
import { pageQuerySchema } from '#shared/doors/http/pagination';
import * as ex from '#shared/doors/openapi/examples';
import { section } from '#shared/doors/openapi/operation';
import { listOf } from '#shared/doors/openapi/common-schemas';
import { domainEnvelopeSchema, domainSchema } from '../domains/schemas';
import { tenantDeletedSchema, tenantEnvelopeSchema, tenantSchema, tenantStatsSchema } from './schemas';
import { page } from '#shared/doors/openapi/page-description';

// ---------------------------------------------------------------------------------------------------
// Tenants

const tenantParamDoc = { tenant: "the tenant's external_id or id (ten_...)" };

export const tenantOps = section('tenants', 'Tenants', {
  createTenant: {
    method: 'post',
    creates: { param: 'tenant', at: 'tenant.id' },
    path: '/tenants',
    summary: 'Create a tenant',
    auth: 'apiKey',
    scopes: ['mail:admin'],
    body: {
      schema: createTenantSchema,
      example: { external_id: 'customer-42', name: 'Customer 42', default_from_domain: 'customer42.com', metadata: { plan: 'gold' } },
    },
    responses: { 201: { description: 'The tenant.', schema: tenantEnvelopeSchema, example: { tenant: ex.exampleTenant } } },
    errors: { 403: ['forbidden', 'tenants_not_enabled', 'plan_limit'], 409: ['conflict'], 503: ['service_unavailable'] },
  },
  listTenants: {
    method: 'get',
    path: '/tenants',
    summary: 'List tenants',
    description: page('The tenants'),
    auth: 'apiKey',
    scopes: ['mail:admin'],
    query: pageQuerySchema.extend(listTenantsQuerySchema.shape),
    responses: { 200: { description: 'A page of tenants.', schema: listOf('tenants', tenantSchema) } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'] },
  },
  getTenant: {
    method: 'get',
    path: '/tenants/{tenant}',
    summary: 'Retrieve a tenant',
    description: 'A key limited to that tenant may call it.',
    auth: 'apiKey',
    scopes: ['mail:admin'],
    pathParams: tenantParamDoc,
    responses: { 200: { description: 'The tenant.', schema: tenantEnvelopeSchema } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'] },
  },
  updateTenant: {
    method: 'patch',
    path: '/tenants/{tenant}',
    summary: 'Change, pause or resume a tenant',
    description:
      '`{"status": "paused", "reason"?}` pauses (its new emails are refused with 403 forbidden), `{"status": "active"}` resumes (not a tenant the service paused), other fields change its settings.',
    auth: 'apiKey',
    scopes: ['mail:admin'],
    pathParams: tenantParamDoc,
    body: { schema: updateTenantSchema, example: { status: 'paused', reason: 'unpaid invoice' } },
    responses: { 200: { description: 'The tenant after the change.', schema: tenantEnvelopeSchema } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 503: ['service_unavailable'] },
  },
  deleteTenant: {
    method: 'delete',
    path: '/tenants/{tenant}',
    summary: 'Delete a tenant',
    description:
      'Revokes its keys and credentials, returns its domains, removes its suppression list and stops endpoints that listened only to it; its emails stay in history with tenant null.',
    auth: 'apiKey',
    scopes: ['mail:admin'],
    pathParams: tenantParamDoc,
    responses: {
      200: {
        description: 'Deleted.',
        schema: tenantDeletedSchema,
        example: { id: ex.id('ten'), object: 'tenant', external_id: 'customer-42', deleted: true },
      },
    },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 503: ['service_unavailable'] },
  },
  getTenantStats: {
    method: 'get',
    path: '/tenants/{tenant}/stats',
    summary: "A tenant's stats and sending ramp",
    auth: 'apiKey',
    scopes: ['mail:admin'],
    pathParams: tenantParamDoc,
    query: tenantStatsQuerySchema,
    responses: { 200: { description: 'Counts over `days` UTC days and the ramp of today.', schema: tenantStatsSchema } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'] },
  },
  giveDomainToTenant: {
    method: 'post',
    path: '/tenants/{tenant}/domains',
    summary: 'Give an account domain to a tenant',
    auth: 'apiKey',
    scopes: ['mail:admin'],
    pathParams: tenantParamDoc,
    body: { schema: assignTenantDomainSchema, example: { domain: 'customer42.com' } },
    responses: { 200: { description: 'The domain, now owned by the tenant.', schema: domainEnvelopeSchema } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 409: ['conflict'], 502: ['upstream_error'], 503: ['service_unavailable'] },
  },
  listTenantDomains: {
    method: 'get',
    path: '/tenants/{tenant}/domains',
    summary: "List a tenant's domains",
    description: page("The tenant's domains"),
    auth: 'apiKey',
    scopes: ['mail:admin'],
    pathParams: tenantParamDoc,
    query: pageQuerySchema,
    responses: { 200: { description: 'A page of domains.', schema: listOf('domains', domainSchema) } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'] },
  },
  returnDomainToAccount: {
    method: 'delete',
    path: '/tenants/{tenant}/domains/{domain}',
    summary: 'Return a domain to the account',
    auth: 'apiKey',
    scopes: ['mail:admin'],
    pathParams: { ...tenantParamDoc, domain: 'the domain name or id (dom_...)' },
    responses: { 200: { description: 'The domain, account-wide again.', schema: domainEnvelopeSchema } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 409: ['conflict'], 502: ['upstream_error'], 503: ['service_unavailable'] },
  },
});
