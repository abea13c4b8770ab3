/**
 * The tenant rules of a send (spec, Tenants: "Tenant-related rules on other endpoints", rule 12 of POST
 * /emails, Authentication 3), as pure functions any door can call with what it knows (the HTTP API
 * after its one context read; the SMTP relay at MAIL FROM; an automation step):
 *
 *  - which tenant a send is for: the named one; else the key's tenant (a tenant-limited key always sends
 *    as its tenant); else the tenant owning the from domain (rule 12); else none;
 *  - a key limited to a tenant naming another: 403 forbidden (checkTenantAllowed, tenant-scope.ts);
 *  - a paused tenant: 403 forbidden; a transactional_only tenant and non-transactional mail: 403 forbidden;
 *  - a from domain owned by another tenant: 403 domain_not_allowed;
 *  - a bare local part in `from` is completed with the tenant's default_from_domain (400 naming `from`
 *    when there is no such tenant).
 */
import { isBareLocalPart, type Mailbox } from '../../domain/mail/address';
import { ForbiddenError, ValidationError } from '../../domain/errors';
import type { Tenant } from '../../domain/tenants/tenant';

/** Which tenant a send is for, before it is looked up. */
export type TenantChoice =
  | { kind: 'none' }
  /** Named by the request (`tenant`: external_id or id). */
  | { kind: 'named'; ref: string }
  /** The tenant the caller's key is limited to (its id). */
  | { kind: 'key'; id: string }
  /** The tenant owning the from domain (its id; spec rule 12). */
  | { kind: 'domain'; id: string };

/** The facts of the from domain's claim the choice depends on (null: sandbox or unclaimed). */
export interface ClaimOwner {
  account_id: string;
  tenant_id: string | null;
}

/**
 * The tenant a send is for. A tenant-limited key naming no tenant sends as its tenant, whatever domain
 * it sends from (a domain of another tenant is then refused by checkDomainOwner). Only a claim of the
 * caller's own account can make the email a tenant's.
 */
export function chooseSendTenant(
  named: string | undefined | null,
  keyTenantId: string | null | undefined,
  accountId: string,
  claim: ClaimOwner | null,
): TenantChoice {
  if (named !== undefined && named !== null) return { kind: 'named', ref: named };
  if (keyTenantId) return { kind: 'key', id: keyTenantId };
  if (claim && claim.account_id === accountId && claim.tenant_id) return { kind: 'domain', id: claim.tenant_id };
  return { kind: 'none' };
}

/** A paused tenant sends nothing; a transactional_only tenant sends only transactional mail (403 forbidden). */
export function checkTenantMaySend(
  tenant: Pick<Tenant, 'external_id' | 'status' | 'paused_reason' | 'stream_policy'>,
  category: string,
): void {
  if (tenant.status === 'paused') {
    throw new ForbiddenError(`Tenant ${tenant.external_id} is paused: its emails are refused until it is resumed.`, 'forbidden', {
      details: { tenant: tenant.external_id, status: 'paused', ...(tenant.paused_reason ? { paused_reason: tenant.paused_reason } : {}) },
      hint: 'Resume the tenant (PATCH /tenants/{tenant} {"status": "active"}); a tenant paused by the service is resumed by support.',
    });
  }
  if (tenant.stream_policy === 'transactional_only' && category !== 'transactional') {
    throw new ForbiddenError(
      `Tenant ${tenant.external_id} may only send transactional email; this email is ${category} email.`,
      'forbidden',
      {
        details: { tenant: tenant.external_id, stream_policy: 'transactional_only', category },
        hint: 'Send it with category "transactional", or change the tenant\'s stream_policy to "all".',
      },
    );
  }
}

/**
 * Only the owning tenant may send from a tenant's domain; every tenant (and the account) may send from
 * account-wide domains. `claim` is the from domain's claim (of the caller's account: checkSender ran).
 */
export function checkDomainOwner(tenant: Pick<Tenant, 'id' | 'external_id'> | null, fromDomain: string, claim: ClaimOwner | null): void {
  if (!claim?.tenant_id || claim.tenant_id === tenant?.id) return;
  throw new ForbiddenError(
    tenant
      ? `The domain ${fromDomain} belongs to another tenant; tenant ${tenant.external_id} cannot send from it.`
      : `The domain ${fromDomain} belongs to a tenant; send as that tenant.`,
    'domain_not_allowed',
    {
      details: { domain: fromDomain, ...(tenant ? { tenant: tenant.external_id } : {}) },
      hint: 'Send from a domain of this tenant or an account-wide domain.',
    },
  );
}

/** 400 naming `from`: a bare local part with no tenant default_from_domain to complete it. */
export function bareSenderError(from: Mailbox, tenant: Pick<Tenant, 'external_id'> | null): ValidationError {
  const why = tenant ? `tenant ${tenant.external_id} has no default_from_domain` : 'the send has no tenant with a default_from_domain';
  return new ValidationError(`"${from.email}" is not a full email address and ${why} to complete it.`, {
    details: { fields: [{ field: 'from', message: `a full email address is required (${why})` }] },
    hint: 'Send from name@your-domain, or set default_from_domain on the tenant (PATCH /tenants/{tenant}).',
  });
}

/**
 * The sender, completed: a bare local part gets the tenant's default_from_domain; a full address is
 * returned as it is. 400 naming `from` when a bare local part cannot be completed.
 */
export function completeSender(from: Mailbox, tenant: Pick<Tenant, 'external_id' | 'default_from_domain'> | null): Mailbox {
  if (!isBareLocalPart(from)) return from;
  if (!tenant?.default_from_domain) throw bareSenderError(from, tenant);
  return { ...from, email: `${from.email}@${tenant.default_from_domain}` };
}

/**
 * A scheduled tenant email at its firing time: the tenant's rules apply as of then. Returns why it may
 * not go out (kept as the failed email's bounce_reason), or null. `tenant` null: the tenant was deleted.
 */
export function tenantFiringRefusal(
  tenant: Pick<Tenant, 'external_id' | 'status' | 'paused_reason' | 'stream_policy'> | null,
  category: string | undefined,
): string | null {
  if (!tenant) return 'Not sent: the tenant was deleted before the scheduled time.';
  if (tenant.status === 'paused')
    return `Not sent: tenant ${tenant.external_id} was paused at the scheduled time${tenant.paused_reason ? ` (${tenant.paused_reason})` : ''}.`;
  if (tenant.stream_policy === 'transactional_only' && category !== undefined && category !== 'transactional') {
    return `Not sent: tenant ${tenant.external_id} only sends transactional email at the scheduled time; this email is ${category} email.`;
  }
  return null;
}
