/**
 * The send's tenant, read in the send's ONE context read (shared/adapters/store/send-context.ts).
 *
 * The tenant item is keyed by (account, external_id), so a tenant named by external_id is one more key
 * in the batch. Its suppression list and opt-outs, though, are keyed by the tenant's id, which the
 * external_id does not tell, and a tenant may also come from the key (an id) or the from domain's
 * claim (an id, known only after the read). So the read is planned from what this process has seen:
 *
 *  - tenant id -> external_id: immutable (an id is never reused and external_id never changes);
 *  - key hash -> tenant id: immutable (a key's tenant is fixed at creation);
 *  - (account, external_id) -> tenant id, tenant id -> default_from_domain, (account, domain) -> owning
 *    tenant id: GUESSES, each checked against the items the read returns (strongly consistent).
 *
 * A right guess (every send of a tenant after its first in this process) costs nothing: the tenant's
 * lists and the default domain's claim are in the same batch. A wrong or missing guess costs one
 * follow-up read (and, for a tenant named by id whose external_id is not known yet, the tenant
 * lookup): never a wrong answer, since the decision is always made on what the reads returned.
 *
 * What was seen lives in a TenantGuesses, one per process (the send-context loader's), never in module state.
 */
import { BoundedMap } from '../../lib/bounded-map';
import type { Tenant } from '../../domain/tenants/tenant';
import type { SendContext } from '../../adapters/store/send-context';
import { looksLikeTenantId, type StoredTenant } from '../../adapters/store/tenants';
import type { TenantChoice } from './tenant-policy';

export interface TenantReadPlan {
  /** Tenant items to read by external_id. */
  tenantExternalIds: string[];
  /** Id aliases to read (a tenant named by an id whose external_id is not known). */
  tenantAliasIds: string[];
  /** The tenant whose lists are read: the expected tenant's id, or null. */
  tenantId: string | null;
  /** For a bare local part in `from`: the expected tenant's default_from_domain (its claim is read too). */
  defaultFromDomain: string | null;
}

const MAX = 10_000;
const named = (accountId: string, value: string) => `${accountId}\u0000${value}`;

/**
 * What this process has seen of tenants, to plan the next send's read: five bounded maps (10,000 entries
 * each, oldest forgotten first). Two hold immutable facts (a tenant's external_id, a key's tenant); three
 * hold guesses with no time bound that never decide (the read checks them). One per process, owned by the
 * send-context loader (./send-context-loader.ts); a test builds its own, empty.
 */
export class TenantGuesses {
  /** tenant id -> external_id: immutable. */
  private readonly externalIdOf = new BoundedMap<string, string>(MAX);
  /** key hash -> tenant id (null: account-wide): immutable. */
  private readonly tenantOfKeyHash = new BoundedMap<string, string | null>(MAX);
  /** (account, external_id) -> tenant id: a guess (the tenant may be deleted and re-created). */
  private readonly idOfName = new BoundedMap<string, string>(MAX);
  /** tenant id -> default_from_domain: a guess (the tenant's setting may change). */
  private readonly defaultDomainOf = new BoundedMap<string, string | null>(MAX);
  /** (account, domain) -> owning tenant id: a guess (a domain may move to another tenant). */
  private readonly tenantOfDomain = new BoundedMap<string, string | null>(MAX);

  /** A key's tenant (immutable), learnt whenever the key is read. */
  rememberKeyTenant(keyHash: string, tenantId: string | null): void {
    this.tenantOfKeyHash.set(keyHash, tenantId);
  }

  /** The tenant a key is limited to: an id, null for an account-wide key, undefined when not known yet. */
  keyTenantOf(keyHash: string): string | null | undefined {
    return this.tenantOfKeyHash.get(keyHash);
  }

  /** What the send learnt about a tenant, for the next send's plan. */
  rememberTenant(tenant: Pick<Tenant, 'id' | 'account_id' | 'external_id' | 'default_from_domain'>): void {
    this.externalIdOf.set(tenant.id, tenant.external_id);
    this.idOfName.set(named(tenant.account_id, tenant.external_id), tenant.id);
    this.defaultDomainOf.set(tenant.id, tenant.default_from_domain);
  }

  /** Which tenant owns a domain of the account (from its claim), for the next send's plan. */
  rememberDomainTenant(accountId: string, domain: string, tenantId: string | null): void {
    this.tenantOfDomain.set(named(accountId, domain), tenantId);
  }

  /**
   * What to read for the send's tenant. `keyTenantId` undefined: the key is not known yet (read in this
   * batch); `fromDomain` null: the sender is a bare local part (its domain is the tenant's default).
   */
  plan(input: {
    accountId: string;
    named: string | undefined;
    keyTenantId: string | null | undefined;
    fromDomain: string | null;
  }): TenantReadPlan {
    const externalIds: string[] = [];
    const aliasIds: string[] = [];
    let id: string | null = null;
    if (input.named !== undefined) {
      externalIds.push(input.named);
      if (looksLikeTenantId(input.named)) {
        id = input.named;
        const external = this.externalIdOf.get(input.named);
        if (external !== undefined) externalIds.push(external);
        else aliasIds.push(input.named);
      } else {
        id = this.idOfName.get(named(input.accountId, input.named)) ?? null;
      }
    } else if (input.keyTenantId) {
      id = input.keyTenantId;
    } else {
      id = input.fromDomain ? (this.tenantOfDomain.get(named(input.accountId, input.fromDomain)) ?? null) : null;
    }
    if (id !== null && input.named === undefined) {
      const external = this.externalIdOf.get(id);
      if (external !== undefined) externalIds.push(external);
    }
    return {
      tenantExternalIds: externalIds,
      tenantAliasIds: aliasIds,
      tenantId: id,
      defaultFromDomain: input.fromDomain === null && id !== null ? (this.defaultDomainOf.get(id) ?? null) : null,
    };
  }
}

/** The chosen tenant as the context read found it: found, missing (404 or none), or not read (look it up). */
export type TenantLookup = { kind: 'found'; stored: StoredTenant } | { kind: 'missing' } | { kind: 'not_read' };

const live = (stored: StoredTenant): TenantLookup => (stored.deleting ? { kind: 'missing' } : { kind: 'found', stored });

/** Pure: the chosen tenant among the items the context read returned. */
export function tenantInContext(
  context: Pick<SendContext, 'tenants' | 'tenantAliases'>,
  plan: Pick<TenantReadPlan, 'tenantAliasIds'>,
  accountId: string,
  choice: Exclude<TenantChoice, { kind: 'none' }>,
): TenantLookup {
  const byId = (id: string) => context.tenants.find((stored) => stored.tenant.id === id && stored.tenant.account_id === accountId);
  if (choice.kind !== 'named') {
    const stored = byId(choice.id);
    return stored ? live(stored) : { kind: 'not_read' };
  }
  const ref = choice.ref;
  const byExternalId = context.tenants.find((stored) => stored.tenant.external_id === ref && stored.tenant.account_id === accountId);
  if (byExternalId) return live(byExternalId);
  if (!looksLikeTenantId(ref)) return { kind: 'missing' };
  const stored = byId(ref);
  if (stored) return live(stored);
  const alias = context.tenantAliases.find((found) => found.id === ref);
  if (alias) return alias.account_id === accountId ? { kind: 'not_read' } : { kind: 'missing' };
  // The alias was asked for and is absent: no such tenant. Otherwise (external_id from memory, item gone
  // or of another id) look it up properly.
  return plan.tenantAliasIds.includes(ref) ? { kind: 'missing' } : { kind: 'not_read' };
}
