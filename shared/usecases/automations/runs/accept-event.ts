/**
 * POST /events (spec, "Custom events"; docs/automations.md, "Events"): records nothing of its own (the
 * event lives on in the runs it touches) and, in this order,
 *   1. cancels the user's running runs of every active automation whose trigger lists this event in
 *      `cancel_on_events` (one conditional write each: only while running);
 *   2. resumes the user's runs waiting for this event (one conditional write each: only while waiting at
 *      that step for that event, so of two events racing for one wait exactly one resumes it);
 *   3. starts a run of every active automation this event triggers (put if absent; the run id derives
 *      from automation and event, so a retried request starts nothing twice).
 * The steps themselves run in the automation-steps worker (the table's stream hands them over).
 *
 * "The user" is the event's subjects: `user:<user_id>` and `email:<email>` (each the event carries), so
 * a run started by an email-only event is resumed or cancelled by a later event with that email.
 *
 * With `dry_run` and `automation_id` (spec: "dashboard sessions only"), a dashboard session's request
 * runs that one automation as a dry run instead (../automation-dry-run.ts: nothing is written, no
 * Idempotency-Key record either) and answers its trace; any other principal gets 403.
 *
 * Idempotency-Key: the first request stores a pending record naming its event (id and time) before any
 * work; a concurrent or retried request with the key and the same body works with the same event, so
 * every write above is a no-op the second time; the answer is stored when the work is done and replayed
 * after that. The same key with another body is 409.
 */
import type { Automation } from '#shared/domain/automations/automation';
import { eventSubject, type EventRequest } from '#shared/domain/automations/event-request';
import { currentStepResult, newRun, type Run, type RunEvent } from '#shared/domain/automations/run';
import { flowAfter, flowOutcome } from '#shared/domain/automations/step-flow';
import { ForbiddenError } from '#shared/domain/errors';
import type { Idempotency } from '#shared/domain/emails/idempotency';
import { newId } from '#shared/domain/ids';
import type { Clock } from '#shared/ports/clock';
import type { IdempotencyRecord, IdempotencyStore } from '#shared/adapters/store/idempotency';
import type { RunRepository } from '#shared/adapters/store/runs';
import { dryRunAutomation, type AutomationDryRun, type AutomationDryRunDeps } from '../automation-dry-run';
import { requireAutomationAccess } from '../automations';
import { idempotencyConflict } from '../../send/idempotency';
import type { Principal } from '../../access/principal';
import { checkSendScope } from '../../send/policy';

/** The spec's custom event record. */
export interface CustomEvent {
  id: string;
  name: string;
  user_id: string | null;
  email: string | null;
  data: Record<string, unknown>;
  source: 'api';
  created_at: string;
}

export interface AcceptEventResponse {
  event: CustomEvent;
  matched_automations: number;
  resumed_runs: number;
  cancelled_runs: number;
}

export interface AcceptEventDeps {
  automations: {
    activeByTrigger(accountId: string, event: string): Promise<Automation[]>;
    activeByCancelEvent(accountId: string, event: string): Promise<Automation[]>;
    get(accountId: string, automationId: string): Promise<Automation | null>;
  };
  runs: Pick<RunRepository, 'start' | 'runningForSubject' | 'finishWaiting' | 'cancel'>;
  idempotency: Pick<IdempotencyStore, 'get' | 'put' | 'replace'>;
  /** Dry runs render the templates their send steps would use. */
  publishedTemplates: AutomationDryRunDeps['publishedTemplates'];
  clock: Clock;
}

/** Status of a record that names its event but holds no answer yet. */
const PENDING = 0;

/** The stored answer to replay, or the event a pending record names (null: the key is new and now ours). */
async function claimKey(
  deps: AcceptEventDeps,
  accountId: string,
  idempotency: Idempotency,
  fresh: CustomEvent,
  now: Date,
): Promise<{ replay: AcceptEventResponse } | { event: CustomEvent }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await deps.idempotency.get(accountId, idempotency.key, now);
    if (existing) {
      if (existing.fingerprint !== idempotency.fingerprint) throw idempotencyConflict(idempotency, existing);
      if (existing.status === PENDING) return { event: (existing.body as { event: CustomEvent }).event };
      return { replay: existing.body as AcceptEventResponse };
    }
    const pending: IdempotencyRecord = {
      fingerprint: idempotency.fingerprint,
      status: PENDING,
      body: { event: fresh },
      created_at: now.toISOString(),
    };
    if (await deps.idempotency.put(accountId, idempotency.key, pending, now)) return { event: fresh };
  }
  return { event: fresh };
}

const runEventOf = (event: CustomEvent): RunEvent => ({
  id: event.id,
  name: event.name,
  user_id: event.user_id,
  email: event.email,
  data: event.data,
  created_at: event.created_at,
});

/** The user's running runs under each subject the event carries (a run appears once). */
async function runsOfUser(deps: AcceptEventDeps, accountId: string, event: CustomEvent): Promise<Run[]> {
  const subjects = [event.user_id !== null ? `user:${event.user_id}` : null, event.email !== null ? `email:${event.email}` : null].filter(
    (s): s is string => s !== null,
  );
  const found = new Map<string, Run>();
  for (const runs of await Promise.all(subjects.map((subject) => deps.runs.runningForSubject(accountId, subject)))) {
    for (const run of runs) found.set(run.id, run);
  }
  return [...found.values()];
}

/** The automations of the runs waiting for this event that are paused or deleted now: those runs are cancelled, not resumed. */
async function stoppedAutomations(deps: AcceptEventDeps, accountId: string, waiting: Run[]): Promise<Set<string>> {
  const stopped = new Set<string>();
  await Promise.all(
    [...new Set(waiting.map((run) => run.automation_id))].map(async (id) => {
      const automation = await deps.automations.get(accountId, id);
      if (automation?.status !== 'active') stopped.add(id);
    }),
  );
  return stopped;
}

/**
 * One of the user's runs as the event finds it: cancelled when its automation cancels on the event, resumed
 * when it waits for it (cancelled instead when its automation stopped: not counted), else left alone (null).
 */
async function cancelOrResume(
  deps: AcceptEventDeps,
  run: Run,
  event: CustomEvent,
  at: string,
  automations: { cancelIds: Set<string>; stopped: Set<string> },
): Promise<'cancelled' | 'resumed' | null> {
  if (automations.cancelIds.has(run.automation_id)) {
    return (await deps.runs.cancel(run.id, at, `cancelled by event ${event.name} (${event.id})`)) ? 'cancelled' : null;
  }
  if (run.step_state !== 'waiting' || run.waiting_for !== event.name) return null;
  if (automations.stopped.has(run.automation_id)) {
    await deps.runs.cancel(
      run.id,
      at,
      `the automation was paused or deleted before step ${run.steps[run.step_index]?.key ?? run.step_index} finished`,
    );
    return null;
  }
  const result = currentStepResult(
    run,
    'completed',
    run.step_started_at ?? at,
    at,
    { event: event.name, event_id: event.id, timed_out: false },
    null,
  );
  const resumed = await deps.runs.finishWaiting(
    run.id,
    run.step_index,
    result,
    flowOutcome(flowAfter(run.steps, run.step_index)),
    event.name,
  );
  return resumed ? 'resumed' : null;
}

async function applyEvent(
  deps: AcceptEventDeps,
  accountId: string,
  event: CustomEvent,
  now: Date,
): Promise<Omit<AcceptEventResponse, 'event'>> {
  const at = now.toISOString();
  // Three independent reads at once: the automations it starts, those it cancels, the user's runs.
  const [triggered, cancelling, userRuns] = await Promise.all([
    deps.automations.activeByTrigger(accountId, event.name),
    deps.automations.activeByCancelEvent(accountId, event.name),
    runsOfUser(deps, accountId, event),
  ]);
  const cancelIds = new Set(cancelling.map((automation) => automation.id));

  // A run waiting for this event whose automation was paused or deleted is cancelled, not resumed.
  const waiting = userRuns.filter(
    (run) => !cancelIds.has(run.automation_id) && run.step_state === 'waiting' && run.waiting_for === event.name,
  );
  const stopped = await stoppedAutomations(deps, accountId, waiting);

  // 1. Cancel, 2. resume (a run cancelled here is not resumed).
  const touched = await Promise.all(userRuns.map((run) => cancelOrResume(deps, run, event, at, { cancelIds, stopped })));

  // 3. Start.
  const subject = eventSubject(event);
  const runEvent = runEventOf(event);
  await Promise.all(triggered.map((automation) => deps.runs.start(newRun({ automation, event: runEvent, subject, now }))));
  return {
    matched_automations: triggered.length,
    resumed_runs: touched.filter((outcome) => outcome === 'resumed').length,
    cancelled_runs: touched.filter((outcome) => outcome === 'cancelled').length,
  };
}

export async function acceptEvent(
  deps: AcceptEventDeps,
  principal: Principal,
  request: EventRequest,
  idempotency?: Idempotency,
): Promise<AcceptEventResponse | AutomationDryRun> {
  requireAutomationAccess(principal);
  checkSendScope(principal.credential);
  if (request.dry_run || request.automation_id !== null) {
    if (principal.credential.kind !== 'session' || !request.dry_run || request.automation_id === null) {
      throw new ForbiddenError('dry_run runs only from a dashboard session; API keys cannot dry-run an automation.', 'forbidden', {
        hint: 'Send the event without dry_run and automation_id, or dry-run the automation from the dashboard (POST /api/events with its session cookie).',
      });
    }
    return dryRunAutomation(deps, principal, request.automation_id, request);
  }
  const now = deps.clock.now();
  const accountId = principal.account.id;
  let event: CustomEvent = {
    id: newId('ae', now.getTime()),
    name: request.name,
    user_id: request.user_id,
    email: request.email,
    data: request.data,
    source: 'api',
    created_at: now.toISOString(),
  };
  if (idempotency) {
    const claimed = await claimKey(deps, accountId, idempotency, event, now);
    if ('replay' in claimed) return claimed.replay;
    event = claimed.event;
  }
  const response: AcceptEventResponse = { event, ...(await applyEvent(deps, accountId, event, now)) };
  if (idempotency) {
    await deps.idempotency.replace(
      accountId,
      idempotency.key,
      { fingerprint: idempotency.fingerprint, status: 202, body: response, created_at: event.created_at },
      now,
    );
  }
  return response;
}
