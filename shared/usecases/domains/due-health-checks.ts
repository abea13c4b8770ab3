/**
 * The domain-health task's pass (functions/tasks/domain-health/handler.ts, every minute): the domains whose
 * next check is due (daily after the last, or brought forward by a verification: ./verify.ts) are checked
 * and stored (./stored-health.ts), a few at a time, until the pass's budget is spent; the rest wait for the
 * next pass. A due check of a domain that is gone (deleted) is forgotten.
 */
import type { DomainCrud } from '../../adapters/store/domains/crud';
import type { DomainHealthRepository } from '../../adapters/store/domain-health';
import { mapWithinBudget } from '../../lib/concurrency';
import { runStoredHealthCheck, type StoredHealthDeps } from './stored-health';

export interface DueHealthChecksDeps extends StoredHealthDeps {
  domains: Pick<DomainCrud, 'get'> & StoredHealthDeps['domains'];
  domainHealth: StoredHealthDeps['domainHealth'] & Pick<DomainHealthRepository, 'pastDue' | 'remove'>;
}

export interface DueHealthChecksReport {
  /** Domains checked and stored. */
  checked: number;
  /** Due checks of domains that no longer exist, forgotten. */
  forgotten: number;
  /** Checks that failed (logged; still due, so the next pass tries again). */
  errors: number;
}

/** Due checks read per pass; checks run CONCURRENT_CHECKS at a time. */
export const CHECKS_PER_PASS = 100;
export const CONCURRENT_CHECKS = 10;

/**
 * One pass. `budgetMs` bounds the time spent starting checks (each is bounded by the health check's own
 * TOTAL_BUDGET_MS), so the pass ends before the task's timeout.
 */
export async function runDueHealthChecks(
  deps: DueHealthChecksDeps,
  options: { budgetMs: number; log(message: string, error: unknown): void },
): Promise<DueHealthChecksReport> {
  const due = await deps.domainHealth.pastDue(deps.clock.now(), CHECKS_PER_PASS);
  const { results, errors } = await mapWithinBudget(
    due,
    { concurrency: CONCURRENT_CHECKS, budgetMs: options.budgetMs },
    async (domainId): Promise<'checked' | 'forgotten'> => {
      const stored = await deps.domains.get(domainId);
      if (!stored) {
        await deps.domainHealth.remove(domainId);
        return 'forgotten';
      }
      await runStoredHealthCheck(deps, stored.domain);
      return 'checked';
    },
    (domainId, error) => options.log(`domain-health: the check of ${domainId} failed`, error),
  );
  return {
    checked: results.filter((outcome) => outcome === 'checked').length,
    forgotten: results.filter((outcome) => outcome === 'forgotten').length,
    errors,
  };
}
