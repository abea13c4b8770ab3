/**
 * The domain-health task's passes over hosted hosts (functions/tasks/domain-health/handler.ts, every minute):
 * the hosts of one kind whose next step is due (./schedule.ts) take it (./step.ts), a few at a time, until the
 * pass's budget is spent; a step that fails stays due and is taken again at the next pass.
 */
import { mapWithinBudget } from '#shared/lib/concurrency';
import type { Clock } from '#shared/ports/clock';
import type { HostingStepOutcome } from './step';

export interface DueHostingStepsReport {
  /** Steps taken (whatever they found). */
  steps: number;
  /** Hosts removed (their custom domain name, certificate and item deleted). */
  removed: number;
  /** Steps that failed (logged; still due). */
  errors: number;
}

export const STEPS_PER_PASS = 50;
export const CONCURRENT_STEPS = 5;

/** The hosts of one kind: those due, and the step of one (by its key). */
export interface DueHosts {
  /** What the log names ("MTA-STS", "link domain"). */
  label: string;
  pastDue(now: Date, limit: number): Promise<string[]>;
  step(key: string): Promise<HostingStepOutcome>;
}

export async function runDueSteps(
  clock: Clock,
  hosts: DueHosts,
  options: { budgetMs: number; log(message: string, error: unknown): void },
): Promise<DueHostingStepsReport> {
  const due = await hosts.pastDue(clock.now(), STEPS_PER_PASS);
  const { results, errors } = await mapWithinBudget(
    due,
    { concurrency: CONCURRENT_STEPS, budgetMs: options.budgetMs },
    (key) => hosts.step(key),
    (key, error) => options.log(`domain-health: the ${hosts.label} step of ${key} failed`, error),
  );
  return { steps: results.length, removed: results.filter((outcome) => outcome === 'removed').length, errors };
}
