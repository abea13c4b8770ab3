/**
 * The domain-health task's second pass (functions/tasks/domain-health/handler.ts, every minute): hosted
 * MTA-STS policies whose next step is due (./schedule.ts) take it (./step.ts), a few at a time, until the
 * pass's budget is spent; a step that fails stays due and is taken again at the next pass.
 */
import { mapWithinBudget } from '#shared/lib/concurrency';
import type { MtaStsHostingRepository } from '#shared/adapters/store/mta-sts-hosting';
import type { MtaStsHostingDeps } from './deps';
import { takeHostingStep } from './step';

export interface DueHostingStepsDeps extends MtaStsHostingDeps {
  mtaStsHosting: MtaStsHostingDeps['mtaStsHosting'] & Pick<MtaStsHostingRepository, 'pastDue'>;
}

export interface DueHostingStepsReport {
  /** Steps taken (whatever they found). */
  steps: number;
  /** Hosted policies removed (their custom domain name, certificate and item deleted). */
  removed: number;
  /** Steps that failed (logged; still due). */
  errors: number;
}

export const STEPS_PER_PASS = 50;
export const CONCURRENT_STEPS = 5;

export async function runDueHostingSteps(
  deps: DueHostingStepsDeps,
  options: { budgetMs: number; log(message: string, error: unknown): void },
): Promise<DueHostingStepsReport> {
  const due = await deps.mtaStsHosting.pastDue(deps.clock.now(), STEPS_PER_PASS);
  const { results, errors } = await mapWithinBudget(
    due,
    { concurrency: CONCURRENT_STEPS, budgetMs: options.budgetMs },
    (policyDomain) => takeHostingStep(deps, policyDomain),
    (policyDomain, error) => options.log(`domain-health: the MTA-STS step of ${policyDomain} failed`, error),
  );
  return { steps: results.length, removed: results.filter((outcome) => outcome === 'removed').length, errors };
}
