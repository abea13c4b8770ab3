/**
 * The SESv2 tenant operations (CreateTenant, GetTenant, ListTenants, DeleteTenant,
 * CreateTenantResourceAssociation, DeleteTenantResourceAssociation, ListTenantResources,
 * ListResourceTenants) on parsed JSON bodies, and the check SendEmail makes when a message names a
 * tenant. Resources are named by ARN and must exist in this emulator (its region and account).
 * Throws SesError for client errors; knows nothing about HTTP.
 */
import { randomUUID } from 'node:crypto';
import { alreadyExists, badRequest, notFound } from './errors';
import type { SesStore } from './store';
import { page } from './paging';
import { sendingIdentity } from './sending-identity';
import { tenantSuppressionOf } from './suppression-list';
import { checkEntityType, checkTenantCanSend, parseSendingStatus, reputationEntityBody, sendingStatusOf } from './tenant-status';
import type { OperationResult, SesTenant, TenantResourceType } from './types';
import { optArray, optObject, optString, reqString, type Json } from './validate';

export interface TenantOptions {
  region: string;
  accountId: string;
  log: (msg: string) => void;
}

/** SESv2 TenantName: up to 64 letters, digits, `-` and `_`. */
const TENANT_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const ARN = /^arn:aws[a-z-]*:ses:([^:]*):([^:]*):(identity|configuration-set|template)\/(.+)$/;
const RESOURCE_TYPES: Record<string, TenantResourceType> = {
  identity: 'EMAIL_IDENTITY',
  'configuration-set': 'CONFIGURATION_SET',
  template: 'EMAIL_TEMPLATE',
};

export function checkTenantName(value: unknown, field = 'TenantName'): string {
  const name = reqString(value, field);
  if (!TENANT_NAME.test(name)) throw badRequest(`${field} '${name}' is invalid: use 1-64 letters, digits, hyphens or underscores.`);
  return name;
}

const epochSeconds = (iso: string): number => Date.parse(iso) / 1000;

/** ListTenants' Filter keys (ListTenantsFilterKey) and a tenant's SendingStatus values, as in the SESv2 model. */
const LIST_TENANTS_FILTER_KEYS = ['TENANT_NAME_CONTAINS', 'SENDING_STATUS'];
const SENDING_STATUSES = ['ENABLED', 'REINSTATED', 'DISABLED'];

export class TenantService {
  constructor(
    private readonly store: SesStore,
    private readonly opts: TenantOptions,
  ) {}

  createTenant(body: Json): OperationResult {
    const name = checkTenantName(body.TenantName);
    if (this.store.getTenant(name)) throw alreadyExists(`Tenant <${name}> already exists.`);
    const tags = optArray(body.Tags, 'Tags');
    const suppression = tenantSuppressionOf(body);
    const id = `tn-${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    const tenant: SesTenant = {
      name,
      id,
      arn: `arn:aws:ses:${this.opts.region}:${this.opts.accountId}:tenant/${name}/${id}`,
      createdAt: new Date().toISOString(),
      tags,
      resources: [],
      ...(suppression ? { suppression } : {}),
    };
    this.store.putTenant(tenant);
    this.opts.log(`tenant ${name} created`);
    return { body: this.tenantBody(tenant) };
  }

  getTenant(body: Json): OperationResult {
    return { body: { Tenant: this.tenantBody(this.require(checkTenantName(body.TenantName))) } };
  }

  /**
   * ListTenants as SES answers it: `{Tenants: TenantInfo[], NextToken?}`, a TenantInfo being TenantName,
   * TenantId, TenantArn, CreatedTimestamp (epoch seconds) and SendingStatus; NextToken only while more
   * follow; the optional Filter narrows by TENANT_NAME_CONTAINS (a substring) and SENDING_STATUS
   * (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_ListTenants.html; Filter and SendingStatus
   * as in @aws-sdk/client-sesv2's model). Stricter where SES documents nothing: a Filter key outside
   * ListTenantsFilterKey or a SENDING_STATUS outside SendingStatus is a BadRequestException, and
   * PageSize is 1-1000 (docs/local-cloud/ses.md).
   */
  listTenants(body: Json): OperationResult {
    const filter = optObject(body.Filter, 'Filter') ?? {};
    const unknown = Object.keys(filter).find((key) => !LIST_TENANTS_FILTER_KEYS.includes(key));
    if (unknown) throw badRequest(`Filter key '${unknown}' is invalid: use ${LIST_TENANTS_FILTER_KEYS.join(' or ')}.`);
    const contains = optString(filter.TENANT_NAME_CONTAINS, 'Filter.TENANT_NAME_CONTAINS');
    const status = optString(filter.SENDING_STATUS, 'Filter.SENDING_STATUS');
    if (status !== undefined && !SENDING_STATUSES.includes(status))
      throw badRequest(`Filter.SENDING_STATUS '${status}' is invalid: use ${SENDING_STATUSES.join(', ')}.`);
    const matching = this.store
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

  /** Its associations go with it; the resources themselves stay. */
  deleteTenant(body: Json): OperationResult {
    const name = checkTenantName(body.TenantName);
    if (!this.store.deleteTenant(name)) throw notFound(`Tenant <${name}> does not exist.`);
    this.opts.log(`tenant ${name} deleted`);
    return { body: {} };
  }

  createAssociation(body: Json): OperationResult {
    const tenant = this.require(checkTenantName(body.TenantName));
    const resource = this.resolve(body.ResourceArn);
    if (tenant.resources.some((r) => r.arn === resource.arn))
      throw alreadyExists(`Resource <${resource.arn}> is already associated with tenant <${tenant.name}>.`);
    this.store.putTenant({ ...tenant, resources: [...tenant.resources, resource] });
    return { body: {} };
  }

  deleteAssociation(body: Json): OperationResult {
    const tenant = this.require(checkTenantName(body.TenantName));
    const arn = reqString(body.ResourceArn, 'ResourceArn');
    const kept = tenant.resources.filter((r) => r.arn !== this.canonical(arn));
    if (kept.length === tenant.resources.length) throw notFound(`Resource <${arn}> is not associated with tenant <${tenant.name}>.`);
    this.store.putTenant({ ...tenant, resources: kept });
    return { body: {} };
  }

  listTenantResources(body: Json): OperationResult {
    const tenant = this.require(checkTenantName(body.TenantName));
    const filter = optObject(body.Filter, 'Filter');
    const type = filter ? optString(filter.RESOURCE_TYPE, 'Filter.RESOURCE_TYPE') : undefined;
    const resources = tenant.resources.filter((r) => !type || r.type === type);
    const { items, next } = page(resources, body.NextToken, body.PageSize);
    return {
      body: { TenantResources: items.map((r) => ({ ResourceType: r.type, ResourceArn: r.arn })), ...(next ? { NextToken: next } : {}) },
    };
  }

  listResourceTenants(body: Json): OperationResult {
    const arn = this.canonical(reqString(body.ResourceArn, 'ResourceArn'));
    const tenants = this.store.listTenants().filter((t) => t.resources.some((r) => r.arn === arn));
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

  /**
   * SendEmail naming a tenant: the tenant must exist (NotFoundException), and the sending identity (the
   * sender's address identity, else its domain's or a parent domain's) and the configuration set, when
   * one is named, must be associated with it (BadRequestException).
   */
  checkSend(tenantNameValue: unknown, sourceAddress: string, configurationSet: string | undefined): string {
    const name = checkTenantName(tenantNameValue);
    const tenant = this.store.getTenant(name);
    if (!tenant) throw notFound(`Tenant <${name}> does not exist.`);
    checkTenantCanSend(tenant);
    const associated = new Set(tenant.resources.map((r) => r.arn));
    if (configurationSet && !associated.has(this.arn('configuration-set', configurationSet))) {
      throw badRequest(`Configuration set <${configurationSet}> is not associated with tenant <${name}>.`);
    }
    const identity = sendingIdentity(this.store, sourceAddress)?.name;
    if (!identity) throw badRequest(`No email identity exists for <${sourceAddress}>, so none is associated with tenant <${name}>.`);
    if (!associated.has(this.arn('identity', identity)))
      throw badRequest(`Email identity <${identity}> is not associated with tenant <${name}>.`);
    return name;
  }

  /**
   * UpdateReputationEntityCustomerManagedStatus (PUT /v2/email/reputation/entities/{Type}/{Reference}/customer-managed-status):
   * pauses (DISABLED) or resumes (ENABLED, REINSTATED) a tenant named by its ARN (tenant-status.ts). The
   * emulator models tenants' reputation entities only: another resource's ARN is a NotFoundException.
   */
  updateCustomerManagedStatus(type: string, reference: string, body: Json): OperationResult {
    checkEntityType(type);
    const status = parseSendingStatus(body.SendingStatus);
    const tenant = this.tenantByArn(reference);
    this.store.putTenant({ ...tenant, sendingStatus: { status, updatedAt: new Date().toISOString() } });
    this.opts.log(`tenant ${tenant.name}: sending status ${status}`);
    return { body: {} };
  }

  /** GetReputationEntity for a tenant's ARN. */
  getReputationEntity(type: string, reference: string): OperationResult {
    checkEntityType(type);
    return { body: { ReputationEntity: reputationEntityBody(this.tenantByArn(reference)) } };
  }

  private tenantByArn(arn: string): SesTenant {
    const tenant = this.store.listTenants().find((t) => t.arn === arn);
    if (!tenant) throw notFound(`Reputation entity <${arn}> does not exist.`);
    return tenant;
  }

  private arn(kind: 'identity' | 'configuration-set', name: string): string {
    return `arn:aws:ses:${this.opts.region}:${this.opts.accountId}:${kind}/${kind === 'identity' ? name.toLowerCase() : name}`;
  }

  /** The stored form of an ARN: identity names in lower case (identities are case-insensitive). */
  private canonical(arn: string): string {
    const m = ARN.exec(arn);
    return m && m[3] === 'identity' ? `${arn.slice(0, arn.length - m[4]!.length)}${m[4]!.toLowerCase()}` : arn;
  }

  /** A resource ARN of this emulator's region and account that exists; BadRequest for a malformed one, NotFound otherwise. */
  private resolve(value: unknown): { arn: string; type: TenantResourceType } {
    const arn = reqString(value, 'ResourceArn');
    const m = ARN.exec(arn);
    if (!m) throw badRequest(`ResourceArn '${arn}' is not the ARN of an SES email identity, configuration set or template.`);
    const [, region, account, kind, name] = m as unknown as [string, string, string, string, string];
    const missing = notFound(`Resource <${arn}> does not exist.`);
    if (region !== this.opts.region || account !== this.opts.accountId) throw missing;
    if (kind === 'identity' && !this.store.getIdentity(name)) throw missing;
    if (kind === 'configuration-set' && !this.store.getConfigSet(name)) throw missing;
    if (kind === 'template') throw missing; // the emulator has no templates
    return { arn: this.canonical(arn), type: RESOURCE_TYPES[kind]! };
  }

  private require(name: string): SesTenant {
    const tenant = this.store.getTenant(name);
    if (!tenant) throw notFound(`Tenant <${name}> does not exist.`);
    return tenant;
  }

  private tenantBody(t: SesTenant): Json {
    return {
      TenantName: t.name,
      TenantId: t.id,
      TenantArn: t.arn,
      CreatedTimestamp: epochSeconds(t.createdAt),
      Tags: t.tags,
      SendingStatus: sendingStatusOf(t),
      ...(t.suppression
        ? { SuppressionAttributes: { SuppressedReasons: t.suppression.reasons, SuppressionScope: t.suppression.scope } }
        : {}),
    };
  }
}
