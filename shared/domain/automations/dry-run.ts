/**
 * The dry run of an automation (spec, "Custom events": with `dry_run` and `automation_id`, "that one
 * automation runs even if draft or paused, delays and waits are skipped, and email and SMS steps are
 * stubbed"; docs/automations.md, "Dry run"). Pure: walks the steps as a run would, with the same flow
 * rules (step-flow.ts) and the same condition evaluator, and returns a trace of every step it reached.
 *
 *   delay            skipped: nothing waits (the output says how long the run would have waited).
 *   wait_for_event   skipped as if the awaited event came at once (flowAfter; on_timeout is not used).
 *   condition        evaluated on the event; false ends the run `completed` with `ended_early` (as a run).
 *   send_email       stubbed: `preview` builds the email the step would send (nothing is sent); an
 *                    `{error}` from it fails the dry run at that step, where a real run would fail too.
 *
 * The walk is bounded (steps.length * 2 visits): validation refuses cycles, but a stored definition is
 * never trusted to end on its own.
 */
import type { SendEmailStep, Step } from './automation';
import { parseDuration } from './duration';
import { evaluateCondition, type AutomationEvent } from './evaluate-condition';
import { flowAfter, type Flow } from './step-flow';
import type { Category } from '../mail/category';

/** The event of a dry run: what conditions and `{{event.*}}` read (a run's event without id and time). */
export type DryRunEvent = AutomationEvent;

/** The email a `send_email` step would send for the event (shown, never sent). */
export interface EmailPreview {
  to: string[];
  from: string;
  reply_to?: string[];
  subject: string;
  html?: string;
  text?: string;
  /** Set when the content came from a template: its alias and the published version rendered. */
  template?: { id: string; version: number };
  category: Category;
  tenant?: string;
  tags?: { name: string; value: string }[];
  /** `{{event.*}}` paths the event lacked (filled as ""), each once. */
  missing: string[];
}

export type EmailPreviewResult = EmailPreview | { error: string };

/** Builds the email of a `send_email` step for the event, or the error a real run would hit there. */
export type PreviewEmail = (step: SendEmailStep, event: DryRunEvent) => EmailPreviewResult;

export interface DryRunStepTrace {
  index: number;
  key: string;
  type: Step['type'];
  /** `completed` (a condition), `skipped` (a delay or wait), `stubbed` (a send shown, not sent), `failed`. */
  status: 'completed' | 'skipped' | 'stubbed' | 'failed';
  output: Record<string, unknown> | null;
  error: string | null;
}

export interface DryRunResult {
  status: 'completed' | 'failed';
  /** True when a false condition ended the run (completed, as a real run). */
  ended_early: boolean;
  error: string | null;
  steps: DryRunStepTrace[];
}

function isPreviewError(result: EmailPreviewResult): result is { error: string } {
  return typeof (result as { error?: unknown }).error === 'string';
}

/** One step as the dry run takes it: its trace's status, output and error, and whether a false condition ended the run. */
interface StepVisit {
  status: DryRunStepTrace['status'];
  output: Record<string, unknown> | null;
  error: string | null;
  endedEarly: boolean;
}

const visited = (status: DryRunStepTrace['status'], output: Record<string, unknown>, endedEarly = false): StepVisit => ({
  status,
  output,
  error: null,
  endedEarly,
});
const failedVisit = (error: string): StepVisit => ({ status: 'failed', output: null, error, endedEarly: false });

/** A delay or wait skipped, a condition evaluated, a send stubbed (its preview), an unknown type failed. */
function visitStep(step: Step, event: DryRunEvent, preview: PreviewEmail): StepVisit {
  switch (step.type) {
    case 'delay': {
      const parsed = parseDuration(step.duration);
      if (!parsed.ok) return failedVisit(parsed.message);
      return visited('skipped', { duration: step.duration, would_wait_ms: parsed.ms });
    }
    case 'wait_for_event':
      return visited('skipped', { event: step.event, timeout: step.timeout, assumed: 'event_received' });
    case 'condition': {
      const { result, trace: lines } = evaluateCondition(step, event);
      return visited('completed', { result, trace: lines }, !result);
    }
    case 'send_email': {
      const email = preview(step, event);
      if (isPreviewError(email)) return failedVisit(email.error);
      return visited('stubbed', { ...email });
    }
    default: {
      const unknown = step as { key: string; type: string };
      return failedVisit(`unknown step type ${JSON.stringify(unknown.type)}`);
    }
  }
}

export function dryRunSteps(steps: readonly Step[], event: DryRunEvent, preview: PreviewEmail): DryRunResult {
  const trace: DryRunStepTrace[] = [];
  const maxVisits = steps.length * 2;
  const done = (status: DryRunResult['status'], error: string | null, endedEarly = false): DryRunResult => ({
    status,
    ended_early: endedEarly,
    error,
    steps: trace,
  });

  let flow: Flow = steps.length > 0 ? { next: 0 } : { end: true };
  while ('next' in flow) {
    const index = flow.next;
    if (trace.length >= maxVisits) {
      return done(
        'failed',
        `the dry run stopped after ${maxVisits} steps: the steps go round in a cycle (at step ${steps[index]?.key ?? index})`,
      );
    }
    const step = steps[index];
    if (!step) return done('failed', `the automation has no step ${index}`);
    const visit = visitStep(step, event, preview);
    trace.push({ index, key: step.key, type: step.type, status: visit.status, output: visit.output, error: visit.error });
    if (visit.status === 'failed') return done('failed', visit.error);
    if (visit.endedEarly) return done('completed', null, true);
    flow = flowAfter(steps, index);
  }
  return done('completed', null);
}
