/**
 * Erasure by address (POST /privacy/erasures, GET /privacy/erasures/{id}; docs/erasure.md).
 *
 * startErasure records the erasure (by the address's hash only), then, while it holds the address, moves
 * the address's suppressions and category opt-outs on every list of the account (its tenants' too) to
 * the hash, so it is still not mailed; then works the address's references (everything else that names
 * it) for the request's time budget. What is left is worked by the next GET of the erasure, which needs
 * only the hash: a caller polls GET until `completed`. A second erasure of the same address finds
 * nothing left (its counts are zero).
 */
import { ForbiddenError, NotFoundError } from '../../domain/errors';
import { addressHash } from '../../domain/privacy/address-hash';
import { isErasureId, newErasureId, noneErased, type CreateErasureInput, type Erasure } from '../../domain/privacy/erasure';
import type { Principal } from '../access/principal';
import { limitedTenantOf } from '../access/visibility';
import { ERASURE_BUDGET_MS, type ErasureDeps } from './deps';
import { eraseUnindexedExports } from './erase-exports';
import { eraseStretch } from './erase-records';

/** A key limited to a tenant may not erase: an erasure acts on the whole account (403 forbidden). */
function requireAccountWide(principal: Principal): void {
  if (limitedTenantOf(principal) !== null)
    throw new ForbiddenError('A key limited to a tenant cannot erase an address: erasure acts on the whole account.');
}

export async function startErasure(deps: ErasureDeps, principal: Principal, input: CreateErasureInput): Promise<Erasure> {
  requireAccountWide(principal);
  const accountId = principal.account.id;
  const start = deps.clock.now();
  const at = start.toISOString();
  const erasure: Erasure = {
    id: newErasureId(start.getTime()),
    account_id: accountId,
    address_hash: addressHash(accountId, input.email),
    status: 'running',
    removed: noneErased(),
    suppression_kept_as_hash: false,
    created_at: at,
    updated_at: at,
    completed_at: null,
  };
  await deps.erasures.create(erasure);
  // The lists are keyed by the address itself: done now, while this request holds it.
  const entries = await deps.erasures.listEntries(accountId, input.email);
  await deps.erasures.replaceEntriesByHash(accountId, input.email, entries);
  const listed = entries.suppressions.length + entries.optOuts.length > 0;
  const recorded = listed
    ? await deps.erasures.record(accountId, erasure.id, {
        removed: { suppressions: entries.suppressions.length, category_opt_outs: entries.optOuts.length },
        keptAsHash: true,
        at,
      })
    : erasure;
  return continueErasure(deps, recorded, start.getTime());
}

/** GET /privacy/erasures/{id}: the erasure, continued first for this request's budget while it is running. */
export async function getErasure(deps: ErasureDeps, principal: Principal, erasureId: string): Promise<Erasure> {
  requireAccountWide(principal);
  const erasure = isErasureId(erasureId) ? await deps.erasures.get(principal.account.id, erasureId) : null;
  if (!erasure) throw new NotFoundError('Erasure', erasureId);
  return erasure.status === 'running' ? continueErasure(deps, erasure, deps.clock.now().getTime()) : erasure;
}

/** Works stretches until no reference is left (completed) or the budget is spent (still running). */
async function continueErasure(deps: ErasureDeps, erasure: Erasure, startedMs: number): Promise<Erasure> {
  const deadline = startedMs + (deps.erasureBudgetMs ?? ERASURE_BUDGET_MS);
  let current = erasure;
  for (;;) {
    const { removed, found } = await eraseStretch(deps, erasure.account_id, erasure.address_hash);
    if (found === 0) {
      // No reference left: the exports that could not say whom they name go too, then it is complete.
      await eraseUnindexedExports(deps, erasure.account_id, removed);
      const at = deps.clock.now().toISOString();
      return deps.erasures.record(erasure.account_id, erasure.id, { removed, at, completedAt: at });
    }
    const at = deps.clock.now().toISOString();
    const anything = Object.values(removed).some((n) => n > 0);
    if (anything) current = await deps.erasures.record(erasure.account_id, erasure.id, { removed, at });
    if (deps.clock.now().getTime() >= deadline) return current;
  }
}
