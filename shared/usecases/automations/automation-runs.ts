/**
 * Reading an automation's runs (docs/automations.md, "Runs API"): GET /automations/{id}/runs and
 * GET /automations/{id}/runs/{run_id}. Runs are the account's, like their automation: a key limited to a
 * tenant gets 403; another account's automation, a deleted one, or a malformed id is 404, and so is a
 * run of another automation or account (a run id never tells whether it exists elsewhere).
 *
 * The status filter is the store's (RunRepository.list: a filtered query of GSI1, newest first, with
 * bounded reads): with a rare status a page may hold fewer than `limit` runs, even none, while
 * `has_more` is true.
 */
import { isAutomationId, type Automation } from '../../domain/automations/automation';
import type { Run } from '../../domain/automations/run';
import type { ListRunsQuery } from '../../domain/automations/run-view';
import { NotFoundError } from '../../domain/errors';
import { isId } from '../../domain/ids';
import type { AutomationRepository } from '../../adapters/store/automations';
import type { Page } from '../../adapters/store/cursor';
import type { RunRepository } from '../../adapters/store/runs';
import { requireAutomationAccess } from './automations';
import type { Principal } from '../access/principal';

export interface AutomationRunsDeps {
  automations: Pick<AutomationRepository, 'get'>;
  runs: Pick<RunRepository, 'get' | 'list'>;
}

/** The caller's automation with this id; 404 otherwise (a deleted one, or an id that cannot exist). */
async function ownedAutomation(deps: AutomationRunsDeps, principal: Principal, id: string): Promise<Automation> {
  requireAutomationAccess(principal);
  const automation = isAutomationId(id) ? await deps.automations.get(principal.account.id, id) : null;
  if (!automation) throw new NotFoundError('Automation', id);
  return automation;
}

/** One page of the automation's runs, newest first, optionally only those in one status. */
export async function listAutomationRuns(
  deps: AutomationRunsDeps,
  principal: Principal,
  automationId: string,
  query: ListRunsQuery,
): Promise<Page<Run>> {
  const automation = await ownedAutomation(deps, principal, automationId);
  return deps.runs.list(automation.id, { limit: query.limit, cursor: query.cursor }, query.status);
}

/** One run of the caller's automation; 404 for a malformed id or a run of another automation or account. */
export async function getAutomationRun(deps: AutomationRunsDeps, principal: Principal, automationId: string, runId: string): Promise<Run> {
  const automation = await ownedAutomation(deps, principal, automationId);
  const run = isId('run', runId) ? await deps.runs.get(runId) : null;
  if (!run || run.account_id !== principal.account.id || run.automation_id !== automation.id) throw new NotFoundError('Run', runId);
  return run;
}
