/**
 * The domain-health task's pass over hosted MTA-STS policies (../hosting/due-steps.ts): those whose next step
 * is due take it (./step.ts).
 */
import type { MtaStsHostingRepository } from '#shared/adapters/store/mta-sts-hosting';
import { runDueSteps, type DueHostingStepsReport } from '../hosting/due-steps';
import type { MtaStsHostingDeps } from './deps';
import { takeHostingStep } from './step';

export type { DueHostingStepsReport } from '../hosting/due-steps';
export { CONCURRENT_STEPS, STEPS_PER_PASS } from '../hosting/due-steps';

export interface DueHostingStepsDeps extends MtaStsHostingDeps {
  mtaStsHosting: MtaStsHostingDeps['mtaStsHosting'] & Pick<MtaStsHostingRepository, 'pastDue'>;
}

export function runDueHostingSteps(
  deps: DueHostingStepsDeps,
  options: { budgetMs: number; log(message: string, error: unknown): void },
): Promise<DueHostingStepsReport> {
  const hosts = {
    label: 'MTA-STS',
    pastDue: (now: Date, limit: number) => deps.mtaStsHosting.pastDue(now, limit),
    step: (policyDomain: string) => takeHostingStep(deps, policyDomain),
  };
  return runDueSteps(deps.clock, hosts, options);
}
