/**
 * Automations (docs/automations.md): create, list, read, edit, delete, activate and pause, and read
 * their runs. Runs are started, resumed and cancelled by POST /events (./runs/accept-event.ts), which
 * reads the active automations through AutomationRepository.activeByTrigger / activeByCancelEvent.
 *
 * Automations belong to the whole account: a key limited to a tenant gets 403. Every save validates
 * the whole definition (shared/domain/automations/validate-definition.ts), so activating only changes the status.
 * Every save of a definition (create, edit) records the saver's reach, its key's allowed_domains, which
 * the runs keep and send within; a limited key may not save a step written to send from another domain
 * (403 domain_not_allowed: shared/domain/automations/step-reach.ts).
 * Writes are conditional on the version and status they read (shared/adapters/store/automations.ts); a write
 * that lost a race reads again and re-applies, a few times, before answering 409.
 */
import { AUTOMATION_LIMITS, isAutomationId, newAutomationId, sameDefinition, type Automation } from '../../domain/automations/automation';
import type {
  AutomationAction,
  CreateAutomationInput,
  ListAutomationsQuery,
  UpdateAutomationInput,
} from '../../domain/automations/schemas';
import { stepOutsideReach } from '../../domain/automations/step-reach';
import { definitionProblems, type FieldProblem } from '../../domain/automations/validate-definition';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors';
import { fieldNames } from '../../domain/request-validation';
import type { Clock } from '../../ports/clock';
import type { AutomationRepository } from '../../adapters/store/automations';
import type { Page } from '../../adapters/store/cursor';
import type { Principal } from '../access/principal';
import { requireAccountKey } from '../access/tenant-scope';

export interface AutomationDeps {
  automations: Pick<AutomationRepository, 'create' | 'get' | 'list' | 'save' | 'delete'>;
  clock: Clock;
}

/** Reads and conditional writes per change before a lasting race is answered with 409. */
const WRITE_ATTEMPTS = 5;

/** Automations are the account's: a key limited to a tenant may not use them (403 forbidden). */
export function requireAutomationAccess(principal: Principal): void {
  requireAccountKey(principal, 'use automations');
}

function invalid(problems: FieldProblem[]): never {
  throw new ValidationError(`Invalid request body: check ${fieldNames(problems)}.`, { details: { fields: problems } });
}

function changedConcurrently(id: string): ConflictError {
  return new ConflictError(`Automation ${id} kept changing while this request was applied; nothing was written by it.`, 'conflict', {
    hint: 'Read the automation again (GET /automations/{id}) and retry.',
  });
}

/** The saver's reach for `steps`: its allowed domains (403 when a step's written from is outside them). */
function reachFor(principal: Principal, steps: Automation['steps']): string[] | null {
  const allowed = principal.credential.allowed_domains;
  const outside = stepOutsideReach(steps, allowed);
  if (outside) throw outside;
  return allowed ? [...allowed] : null;
}

/** The caller's automation with this id; 404 otherwise (an id that cannot exist included). */
async function owned(deps: AutomationDeps, principal: Principal, id: string): Promise<Automation> {
  requireAutomationAccess(principal);
  const automation = isAutomationId(id) ? await deps.automations.get(principal.account.id, id) : null;
  if (!automation) throw new NotFoundError('Automation', id);
  return automation;
}

export async function createAutomation(deps: AutomationDeps, principal: Principal, input: CreateAutomationInput): Promise<Automation> {
  requireAutomationAccess(principal);
  const allowedDomains = reachFor(principal, input.steps);
  const now = deps.clock.now();
  const at = now.toISOString();
  const status = input.status ?? 'draft';
  const automation: Automation = {
    id: newAutomationId(now.getTime()),
    account_id: principal.account.id,
    name: input.name,
    status,
    trigger: input.trigger,
    steps: input.steps,
    version: 1,
    created_at: at,
    updated_at: at,
    activated_at: status === 'active' ? at : null,
    allowed_domains: allowedDomains,
  };
  const outcome = await deps.automations.create(automation, AUTOMATION_LIMITS.automationsPerAccount);
  if (outcome.kind === 'limit_reached') {
    throw new ForbiddenError(
      `An account can have at most ${AUTOMATION_LIMITS.automationsPerAccount} automations; delete one to add another.`,
      'limit_exceeded',
      {
        details: { limit: AUTOMATION_LIMITS.automationsPerAccount, resource: 'automations' },
      },
    );
  }
  return automation;
}

export async function listAutomations(deps: AutomationDeps, principal: Principal, query: ListAutomationsQuery): Promise<Page<Automation>> {
  requireAutomationAccess(principal);
  return deps.automations.list(principal.account.id, { limit: query.limit, cursor: query.cursor }, query.status);
}

export async function getAutomation(deps: AutomationDeps, principal: Principal, id: string): Promise<Automation> {
  return owned(deps, principal, id);
}

/**
 * Edits name, trigger or steps (each replaced whole), in any status: an active automation keeps
 * running with the new definition (version + 1); runs already started keep the version they started
 * with (the run engine pins it). The merged definition is validated as a whole, and gets the editor's
 * reach (its steps within it). No change: nothing written.
 */
export async function updateAutomation(
  deps: AutomationDeps,
  principal: Principal,
  id: string,
  input: UpdateAutomationInput,
): Promise<Automation> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const current = await owned(deps, principal, id);
    const definition = { name: input.name ?? current.name, trigger: input.trigger ?? current.trigger, steps: input.steps ?? current.steps };
    const problems = definitionProblems(definition.trigger, definition.steps);
    if (problems.length) invalid(problems);
    if (sameDefinition(definition, current)) return current;
    const allowedDomains = reachFor(principal, definition.steps);
    const next: Automation = {
      ...current,
      ...definition,
      version: current.version + 1,
      updated_at: deps.clock.now().toISOString(),
      allowed_domains: allowedDomains,
    };
    const outcome = await deps.automations.save(current, next);
    if (outcome.kind === 'saved') return outcome.automation;
  }
  throw changedConcurrently(id);
}

/**
 * `activate`: draft or paused -> active (already active: returned as it is). `pause`: active -> paused
 * (already paused: as it is; a draft: 409, it never ran). The definition was validated when saved.
 */
export async function changeAutomationStatus(
  deps: AutomationDeps,
  principal: Principal,
  id: string,
  action: AutomationAction,
): Promise<Automation> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const current = await owned(deps, principal, id);
    const target = action === 'activate' ? 'active' : 'paused';
    if (current.status === target) return current;
    if (action === 'pause' && current.status === 'draft') {
      throw new ConflictError(`Automation ${id} is a draft: it has never run, so there is nothing to pause.`, 'conflict', {
        details: { status: current.status },
        hint: 'Activate it first (POST /automations/{id} {"action": "activate"}), or leave it as a draft.',
      });
    }
    const now = deps.clock.now().toISOString();
    const next: Automation = {
      ...current,
      status: target,
      updated_at: now,
      activated_at: target === 'active' ? now : current.activated_at,
    };
    const outcome = await deps.automations.save(current, next);
    if (outcome.kind === 'saved') return outcome.automation;
  }
  throw changedConcurrently(id);
}

/** Deletes the automation (and its pointers: events stop finding it at once). */
export async function deleteAutomation(deps: AutomationDeps, principal: Principal, id: string): Promise<void> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const current = await owned(deps, principal, id);
    if ((await deps.automations.delete(current)) === 'deleted') return;
  }
  throw changedConcurrently(id);
}
