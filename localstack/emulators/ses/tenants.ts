/**
 * Tenants as the SESv2 tenant operations share them (operations/create-tenant.ts, get-, list-,
 * delete-tenant.ts, create-, delete-tenant-resource-association.ts, list-tenant-resources.ts,
 * list-resource-tenants.ts, get-reputation-entity.ts, update-reputation-entity-customer-managed-status.ts):
 * names, lookups, their answer's shape, resource ARNs; and the check SendEmail makes when a message names
 * a tenant. Resources are named by ARN and must exist in this emulator (its region and account).
 * Throws SesError for client errors.
 */
import { badRequest, notFound } from './errors';
import type { SesStore } from './store';
import { sendingIdentity } from './sending-identity';
import { checkTenantCanSend, sendingStatusOf } from './tenant-status';
import type { SesTenant, TenantResourceType } from './types';
import { reqString, type Json } from './validate';

/** What the tenant helpers read of the emulator's state. */
/** What the tenant rules read (the emulator's state has these: ./state.ts). */
type TenantScope = { store: SesStore; region: string; accountId: string };

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

export const epochSeconds = (iso: string): number => Date.parse(iso) / 1000;

/**
 * SendEmail naming a tenant: the tenant must exist (NotFoundException), and the sending identity (the
 * sender's address identity, else its domain's or a parent domain's) and the configuration set, when
 * one is named, must be associated with it (BadRequestException).
 */
export function checkTenantSend(
  scope: TenantScope,
  tenantNameValue: unknown,
  sourceAddress: string,
  configurationSet: string | undefined,
): string {
  const name = checkTenantName(tenantNameValue);
  const tenant = scope.store.getTenant(name);
  if (!tenant) throw notFound(`Tenant <${name}> does not exist.`);
  checkTenantCanSend(tenant);
  const associated = new Set(tenant.resources.map((r) => r.arn));
  if (configurationSet && !associated.has(resourceArn(scope, 'configuration-set', configurationSet))) {
    throw badRequest(`Configuration set <${configurationSet}> is not associated with tenant <${name}>.`);
  }
  const identity = sendingIdentity(scope.store, sourceAddress)?.name;
  if (!identity) throw badRequest(`No email identity exists for <${sourceAddress}>, so none is associated with tenant <${name}>.`);
  if (!associated.has(resourceArn(scope, 'identity', identity)))
    throw badRequest(`Email identity <${identity}> is not associated with tenant <${name}>.`);
  return name;
}

/** The tenant whose ARN is `arn` (a reputation entity's reference). */
export function tenantByArn(store: SesStore, arn: string): SesTenant {
  const tenant = store.listTenants().find((t) => t.arn === arn);
  if (!tenant) throw notFound(`Reputation entity <${arn}> does not exist.`);
  return tenant;
}

function resourceArn(scope: TenantScope, kind: 'identity' | 'configuration-set', name: string): string {
  return `arn:aws:ses:${scope.region}:${scope.accountId}:${kind}/${kind === 'identity' ? name.toLowerCase() : name}`;
}

/** The stored form of an ARN: identity names in lower case (identities are case-insensitive). */
export function canonicalArn(arn: string): string {
  const m = ARN.exec(arn);
  return m && m[3] === 'identity' ? `${arn.slice(0, arn.length - m[4]!.length)}${m[4]!.toLowerCase()}` : arn;
}

/** A resource ARN of this emulator's region and account that exists; BadRequest for a malformed one, NotFound otherwise. */
export function resolveResource(scope: TenantScope, value: unknown): { arn: string; type: TenantResourceType } {
  const arn = reqString(value, 'ResourceArn');
  const m = ARN.exec(arn);
  if (!m) throw badRequest(`ResourceArn '${arn}' is not the ARN of an SES email identity, configuration set or template.`);
  const [, region, account, kind, name] = m as unknown as [string, string, string, string, string];
  const missing = notFound(`Resource <${arn}> does not exist.`);
  if (region !== scope.region || account !== scope.accountId) throw missing;
  if (kind === 'identity' && !scope.store.getIdentity(name)) throw missing;
  if (kind === 'configuration-set' && !scope.store.getConfigSet(name)) throw missing;
  if (kind === 'template') throw missing; // the emulator has no templates
  return { arn: canonicalArn(arn), type: RESOURCE_TYPES[kind]! };
}

export function requireTenant(store: SesStore, name: string): SesTenant {
  const tenant = store.getTenant(name);
  if (!tenant) throw notFound(`Tenant <${name}> does not exist.`);
  return tenant;
}

/** A tenant as CreateTenant and GetTenant answer it. */
export function tenantBody(t: SesTenant): Json {
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
