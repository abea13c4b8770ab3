/**
 * Suppression use cases. The API's (add, list, remove; of suppressions or, with a category, of category
 * opt-outs) act for a principal on the account-wide list or a tenant's list. The internal ones
 * (suppressAddresses, category opt-outs, the send-path lookups) are for the service itself: bounce and
 * complaint handling, unsubscribe links, sends. They accept every reason and trust the tenant they are
 * given (it comes from the service's own records).
 */
import { normaliseEmail } from '../../domain/mail/address';
import { NotFoundError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { newOptOutId, scopeOf, type CategoryOptOut, type Suppression } from '../../domain/suppressions/model';
import type { OptOutCategory, SuppressionReason } from '../../domain/suppressions/reasons';
import type {
  AddCategoryOptOutsInput,
  AddSuppressionsInput,
  RemoveSuppressionInput,
  SuppressionFilters,
} from '../../domain/suppressions/schemas';
import type { Clock } from '../../ports/clock';
import type { CategoryOptOutRepository } from '../../adapters/store/category-opt-outs';
import type { Page } from '../../adapters/store/cursor';
import type { PageRequest } from '../../adapters/store/paginate';
import type { SuppressionRepository } from '../../adapters/store/suppressions';
import type { Principal } from '../access/principal';
import type { Tenant } from '../../domain/tenants/tenant';
import { resolveTenant, type TenantScopeDeps } from '../access/tenant-scope';
import { tenantRefOf } from '../access/visibility';

export interface SuppressionDeps {
  suppressions: SuppressionRepository;
  categoryOptOuts: CategoryOptOutRepository;
  tenants: TenantScopeDeps['tenants'];
  clock: Clock;
}

/**
 * The list a request acts on: the tenant it names, else a key's own tenant (a key limited to a tenant
 * never reaches the account-wide list), else the account-wide list (null). 403 tenants_not_enabled,
 * 404 or 403 forbidden (another tenant's key) from the one tenant rule.
 */
function listOf(deps: SuppressionDeps, principal: Principal, named: string | undefined): Promise<Tenant | null> {
  return resolveTenant(deps, principal, tenantRefOf(principal, named));
}

/** What the API answers with: records of one list, and that list's tenant (null: account-wide). */
export interface OnList<T> {
  tenant: Tenant | null;
  result: T;
}

export interface AddSuppressionsResult {
  /** One record per distinct address, in request order: the new record or the one already there. */
  suppressions: Suppression[];
  /** Addresses that were added by this call. */
  created: string[];
  /** Addresses that were already on the list (their records are unchanged). */
  existing: string[];
}

/** POST /suppressions: adds `manual` suppressions; re-adding an address is not an error. */
export async function addSuppressions(
  deps: SuppressionDeps,
  principal: Principal,
  input: AddSuppressionsInput,
): Promise<OnList<AddSuppressionsResult>> {
  const tenant = await listOf(deps, principal, input.tenant);
  const result = await suppressAddresses(deps, {
    accountId: principal.account.id,
    tenantId: tenant?.id ?? null,
    emails: input.emails,
    reason: input.reason,
  });
  return { tenant, result };
}

export interface ListSuppressionsInput extends PageRequest, SuppressionFilters {}

/** A page of suppressions; an `email` lookup also has that address's category opt-outs on the list. */
export interface SuppressionsPage extends Page<Suppression> {
  categoryOptOuts?: CategoryOptOut[];
}

/**
 * GET /suppressions: one list, newest first; `email` is an exact lookup (with the address's category
 * opt-outs on that list), `reason` a filter of suppressions. With `category`, see listCategoryOptOutPage.
 */
export async function listSuppressions(
  deps: SuppressionDeps,
  principal: Principal,
  input: ListSuppressionsInput,
): Promise<OnList<SuppressionsPage>> {
  const tenant = await listOf(deps, principal, input.tenant);
  const tenantId = tenant?.id ?? null;
  if (input.email !== undefined) {
    const [found, categoryOptOuts] = await Promise.all([
      deps.suppressions.get(principal.account.id, tenantId, input.email),
      deps.categoryOptOuts.listForAddress(principal.account.id, tenantId, input.email),
    ]);
    const matches = found !== null && (input.reason === undefined || found.reason === input.reason);
    return { tenant, result: { items: matches ? [found] : [], next_cursor: null, categoryOptOuts } };
  }
  return {
    tenant,
    result: await deps.suppressions.list(
      principal.account.id,
      tenantId,
      { reason: input.reason },
      { limit: input.limit, cursor: input.cursor },
    ),
  };
}

/** DELETE /suppressions?email=&tenant=: returns the removed record; 404 when the address is not on the list. */
export async function removeSuppression(
  deps: SuppressionDeps,
  principal: Principal,
  input: RemoveSuppressionInput,
): Promise<OnList<Suppression>> {
  const tenant = await listOf(deps, principal, input.tenant);
  const removed = await deps.suppressions.delete(principal.account.id, tenant?.id ?? null, input.email);
  if (!removed) {
    throw new NotFoundError(tenant === null ? 'Suppression of' : `Suppression (tenant ${tenant.external_id}) of`, input.email);
  }
  return { tenant, result: removed };
}

// ---- category opt-outs through the API ------------------------------------------------------------

export interface AddCategoryOptOutsResult {
  /** One opt-out per distinct address, in request order: the new one or the one already there. */
  optOuts: CategoryOptOut[];
  /** Addresses opted out by this call. */
  created: string[];
  /** Addresses that had already opted out of the category on this list (their records are unchanged). */
  existing: string[];
}

/**
 * POST /suppressions with `category`: the addresses opt out of that category on the list (instead of
 * being suppressed); re-adding is not an error, and concurrent adds of one opt-out create one.
 */
export async function addCategoryOptOuts(
  deps: SuppressionDeps,
  principal: Principal,
  input: AddCategoryOptOutsInput,
): Promise<OnList<AddCategoryOptOutsResult>> {
  const tenant = await listOf(deps, principal, input.tenant);
  const now = deps.clock.now();
  const results = await deps.categoryOptOuts.addMany(
    input.emails.map((email) => ({
      id: newOptOutId(now.getTime()),
      account_id: principal.account.id,
      tenant: tenant?.id ?? null,
      email: normaliseEmail(email),
      category: input.category,
      created_at: now.toISOString(),
    })),
  );
  return {
    tenant,
    result: {
      optOuts: results.map((result) => result.optOut),
      created: results.filter((result) => result.created).map((result) => result.optOut.email),
      existing: results.filter((result) => !result.created).map((result) => result.optOut.email),
    },
  };
}

export interface ListCategoryOptOutsInput extends PageRequest {
  category: OptOutCategory;
  email?: string;
  tenant?: string;
}

/** GET /suppressions?category=: one list's opt-outs of that category, newest first; `email` is an exact lookup. */
export async function listCategoryOptOutPage(
  deps: SuppressionDeps,
  principal: Principal,
  input: ListCategoryOptOutsInput,
): Promise<OnList<Page<CategoryOptOut>>> {
  const tenant = await listOf(deps, principal, input.tenant);
  const tenantId = tenant?.id ?? null;
  if (input.email !== undefined) {
    const found = await deps.categoryOptOuts.listForAddress(principal.account.id, tenantId, input.email);
    return { tenant, result: { items: found.filter((optOut) => optOut.category === input.category), next_cursor: null } };
  }
  return {
    tenant,
    result: await deps.categoryOptOuts.list(principal.account.id, tenantId, input.category, { limit: input.limit, cursor: input.cursor }),
  };
}

/** DELETE /suppressions?email=&category=: re-subscribes; returns the removed opt-out, 404 when there was none. */
export async function resubscribe(
  deps: SuppressionDeps,
  principal: Principal,
  input: { email: string; category: OptOutCategory; tenant?: string },
): Promise<OnList<CategoryOptOut>> {
  const tenant = await listOf(deps, principal, input.tenant);
  const removed = await deps.categoryOptOuts.delete(principal.account.id, tenant?.id ?? null, input.email, input.category);
  if (!removed) {
    throw new NotFoundError(
      `Category opt-out (${input.category}${tenant === null ? '' : `, tenant ${tenant.external_id}`}) of`,
      input.email,
    );
  }
  return { tenant, result: removed };
}

// ---- internal callers ------------------------------------------------------------------------------

export interface SuppressAddressesInput {
  accountId: string;
  /** The tenant's list (the email was sent for that tenant), or null for the account-wide list. */
  tenantId: string | null;
  emails: readonly string[];
  reason: SuppressionReason;
}

/**
 * Puts addresses on a list with any reason (bounce, complaint, unsubscribe from inside the service).
 * Addresses are normalised and deduplicated; ones already on the list keep their record.
 */
export async function suppressAddresses(deps: SuppressionDeps, input: SuppressAddressesInput): Promise<AddSuppressionsResult> {
  const now = deps.clock.now();
  const emails = [...new Set(input.emails.map(normaliseEmail))];
  const records: Suppression[] = emails.map((email) => ({
    id: newId('sup', now.getTime()),
    account_id: input.accountId,
    email,
    scope: scopeOf(input.tenantId),
    tenant: input.tenantId,
    reason: input.reason,
    created_at: now.toISOString(),
  }));
  const results = await deps.suppressions.addMany(records);
  return {
    suppressions: results.map((result) => result.suppression),
    created: results.filter((result) => result.created).map((result) => result.suppression.email),
    existing: results.filter((result) => !result.created).map((result) => result.suppression.email),
  };
}

/** The send path: which recipients are suppressed (account-wide list, plus the tenant's for tenant email). */
export function findSuppressedRecipients(
  deps: SuppressionDeps,
  accountId: string,
  tenantId: string | null,
  emails: readonly string[],
): Promise<string[]> {
  return deps.suppressions.findSuppressed(accountId, tenantId, emails);
}

/** An unsubscribe from one category of mail (product, newsletter); idempotent. */
export async function recordCategoryOptOut(
  deps: SuppressionDeps,
  input: { accountId: string; tenantId: string | null; email: string; category: OptOutCategory },
): Promise<{ optOut: CategoryOptOut; created: boolean }> {
  const now = deps.clock.now();
  return deps.categoryOptOuts.add({
    id: newOptOutId(now.getTime()),
    account_id: input.accountId,
    tenant: input.tenantId,
    email: normaliseEmail(input.email),
    category: input.category,
    created_at: now.toISOString(),
  });
}

/** Undoes a category opt-out (re-subscribe); false when there was none. */
export function removeCategoryOptOut(
  deps: SuppressionDeps,
  input: { accountId: string; tenantId: string | null; email: string; category: OptOutCategory },
): Promise<boolean> {
  return deps.categoryOptOuts.remove(input.accountId, input.tenantId, input.email, input.category);
}

/** The categories an address opted out of on one list. */
export function listCategoryOptOuts(
  deps: SuppressionDeps,
  input: { accountId: string; tenantId: string | null; email: string },
): Promise<CategoryOptOut[]> {
  return deps.categoryOptOuts.listForAddress(input.accountId, input.tenantId, input.email);
}

/** The send path, for mail of a category: which recipients opted out of it (account-wide or from the tenant). */
export function findCategoryOptOuts(
  deps: SuppressionDeps,
  accountId: string,
  tenantId: string | null,
  emails: readonly string[],
  category: OptOutCategory,
): Promise<string[]> {
  return deps.categoryOptOuts.findCategoryOptOuts(accountId, tenantId, emails, category);
}

// ---- a tenant's deletion ---------------------------------------------------------------------------

/**
 * Empties a tenant's suppression list and its category opt-outs, a page at a time through their own
 * index partitions, until a read finds nothing left. Deletes are idempotent, so an interrupted run is
 * finished by the next. `shouldStop` ends it early (time budget): false when it stopped before the end.
 */
export async function deleteTenantLists(
  deps: {
    suppressions: Pick<SuppressionRepository, 'deleteTenantPage'>;
    categoryOptOuts: Pick<CategoryOptOutRepository, 'deleteTenantPage'>;
  },
  tenant: Pick<Tenant, 'id' | 'account_id'>,
  shouldStop: () => boolean = () => false,
): Promise<boolean> {
  for (const list of [deps.suppressions, deps.categoryOptOuts]) {
    while ((await list.deleteTenantPage(tenant.account_id, tenant.id)) > 0) {
      if (shouldStop()) return false;
    }
  }
  return true;
}
