/** Response schemas of the automations group: automations, runs, POST /events and its dashboard dry run. */
import * as z from 'zod';
import { AUTOMATION_STATUSES, CONDITION_OPERATORS, type toPublicAutomation } from '#shared/domain/automations/automation';
import { RUN_STATUSES } from '#shared/domain/automations/run';
import type { RunDetail, RunSummary } from '#shared/domain/automations/run-view';
import { CATEGORIES } from '#shared/domain/mail/category';
import type { AutomationDryRun } from '#shared/usecases/automations/automation-dry-run';
import type { AcceptEventResponse } from '#shared/usecases/automations/runs/accept-event';
import { describing, idOf, nullableTimestamp, tagSchema, timestamp } from '#shared/doors/openapi/common-schemas';
import { conditionSchema, OPERATOR_DOC, ALL_DOC, ANY_DOC } from '#shared/domain/automations/condition-schema';

const STEP_TYPE = z.enum(['send_email', 'delay', 'wait_for_event', 'condition']);

const stepType = (type: 'send_email' | 'delay' | 'wait_for_event' | 'condition') => z.literal(type).describe(`always \`${type}\``);
const stepBase = {
  key: z.string().describe('unique in the automation'),
  next: z.string().optional().describe('the step that follows (default: the next in the list)'),
};

/** A step as stored and returned (defaults applied: a send's `to`, a wait's `on_timeout`). */
export const stepSchema = z.union([
  z.strictObject({
    ...stepBase,
    type: stepType('send_email'),
    to: z.array(z.string()).describe('the recipients (placeholders filled at run time); default ["{{event.email}}"]'),
    from: z.string().optional().describe("the sender; without it, the template's from"),
    reply_to: z.array(z.string()).optional().describe('Reply-To addresses'),
    subject: z.string().optional().describe("the subject; without it, the template's"),
    html: z.string().optional().describe('the HTML body (without a template)'),
    text: z.string().optional().describe('the text body (without a template)'),
    template: z
      .strictObject({
        id: z.string().describe('the template alias'),
        variables: z
          .record(z.string(), z.unknown())
          .optional()
          .describe('values of its placeholders (strings may hold {{event.*}} placeholders)'),
      })
      .optional()
      .describe('a template whose published version at run time is the content'),
    category: z.enum(CATEGORIES).optional().describe('transactional, product or newsletter'),
    unsubscribe: z.boolean().optional().describe('managed unsubscribe on or off, as on a send'),
    tags: z.array(tagSchema).optional().describe('tags of the email, as `{name, value}`'),
    tenant: z.string().optional().describe('the tenant to send for (external_id or id; placeholders allowed)'),
  }),
  z.strictObject({ ...stepBase, type: stepType('delay'), duration: z.string().describe('e.g. "3 days", "90 minutes"') }),
  z.strictObject({
    ...stepBase,
    type: stepType('wait_for_event'),
    event: z.string().describe('the event name to wait for, for the same user'),
    timeout: z.string().describe('how long to wait (1 minute to 30 days), e.g. "7 days"'),
    on_timeout: z.string().describe('end, continue or a step key'),
  }),
  z
    .strictObject({
      ...stepBase,
      type: stepType('condition'),
      field: z.string().optional().describe('a rule: event.name, event.email, event.user_id or event.data.<key>'),
      operator: z.enum(CONDITION_OPERATORS).optional().describe(`a rule: ${OPERATOR_DOC}`),
      value: z
        .union([z.string(), z.number(), z.boolean()])
        .optional()
        .describe('a rule: the value compared with (absent for exists and is_empty)'),
      all: z.array(conditionSchema).optional().describe(`a group: ${ALL_DOC}`),
      any: z.array(conditionSchema).optional().describe(`a group: ${ANY_DOC}`),
    })
    .describe('a rule ({field, operator, value?}) or a group ({all} or {any}) beside key, type and next: a false condition ends the run'),
]);

export const automationSchema = describing<ReturnType<typeof toPublicAutomation>>()(
  z.strictObject({
    object: z.literal('automation').describe('always `automation`'),
    id: idOf('auto').describe("the automation's id (auto_...)"),
    name: z.string().describe('a label for people (1-200 characters)'),
    status: z.enum(AUTOMATION_STATUSES).describe('draft (never activated), active (events start runs) or paused (events start nothing)'),
    trigger: z
      .strictObject({
        event: z.string().describe('the event name that starts a run'),
        cancel_on_events: z.array(z.string()).describe("event names that cancel the user's runs ([] for none)"),
      })
      .describe('what starts and cancels runs'),
    steps: z.array(stepSchema).describe('the steps, as stored (defaults filled in), run in order'),
    version: z.number().int().describe('incremented by every change'),
    created_at: timestamp.describe('when the automation was created (ISO 8601)'),
    updated_at: timestamp.describe('when it last changed (ISO 8601)'),
    activated_at: nullableTimestamp.describe('the last activation (ISO 8601); null while never activated (kept while paused)'),
    allowed_domains: z
      .array(z.string())
      .nullable()
      .describe(
        "its reach: the sending domains of the key that created or last changed it (its allowed_domains); its runs send only from these. null: any of the account's domains",
      ),
  }),
);

export const automationEnvelopeSchema = z.strictObject({ automation: automationSchema.describe('the automation') });

const stepIndex = z.number().int().describe("the step's position in the automation's steps (from 0)");
const stepKey = z.string().describe("the step's key");
const stepTypeOf = STEP_TYPE.describe("the step's type");
const wakeAt = nullableTimestamp.describe("a waiting step's due time: a delay's end or a wait's timeout (ISO 8601); null unless waiting");
const waitingFor = z.string().nullable().describe('the event a wait_for_event step waits for; null unless waiting for one');

const runEventFields = {
  id: idOf('ae').describe("the event's id (ae_...)"),
  name: z.string().describe('the event name'),
  user_id: z.string().nullable().describe("the event's user_id; null when it had none"),
  email: z.string().nullable().describe("the event's email (lower-cased); null when it had none"),
  created_at: timestamp.describe('when the event was accepted (ISO 8601)'),
};
const runEvent = z.strictObject(runEventFields);

const runSummaryFields = {
  object: z.literal('automation_run').describe('always `automation_run`'),
  id: idOf('run').describe("the run's id (run_...)"),
  automation_id: idOf('auto').describe('the automation (auto_...)'),
  automation_version: z.number().int().describe('the version of the automation the run started with (and runs to the end)'),
  status: z
    .enum(RUN_STATUSES)
    .describe(
      'running; completed (every step ran, a false condition, or a wait timed out with on_timeout end); failed or cancelled (see error)',
    ),
  current_step: z
    .strictObject({
      index: stepIndex,
      key: stepKey,
      type: stepTypeOf,
      state: z
        .enum(['pending', 'running', 'waiting'])
        .describe('pending (handed to the worker), running (an attempt is doing it) or waiting (a delay or wait)'),
      wake_at: wakeAt,
      waiting_for: waitingFor,
    })
    .nullable()
    .describe('the step a running run is at; null once it ended'),
  steps_completed: z.number().int().describe('steps finished so far, whatever their outcome (completed, skipped or failed)'),
  error: z.string().nullable().describe('why a failed run failed or a cancelled run was cancelled; null otherwise'),
  created_at: timestamp.describe('when the run was created (ISO 8601)'),
  updated_at: timestamp.describe('when it last changed (ISO 8601)'),
  ended_at: nullableTimestamp.describe('when the run completed, failed or was cancelled (ISO 8601); null while running'),
};

export const runSummarySchema = describing<RunSummary>()(
  z.strictObject({ ...runSummaryFields, event: runEvent.describe('the event that started the run (without its data)') }),
);

export const runDetailSchema = describing<RunDetail>()(
  z.strictObject({
    ...runSummaryFields,
    event: z
      .strictObject({
        ...runEventFields,
        data: z.record(z.string(), z.unknown()).describe("the event's data (what conditions and {{event.data.*}} read)"),
      })
      .describe('the event that started the run'),
    steps: z
      .array(
        z.strictObject({
          index: stepIndex,
          key: stepKey,
          type: stepTypeOf,
          status: z
            .enum(['completed', 'failed', 'skipped', 'pending', 'running', 'waiting'])
            .describe('a finished step: completed, failed or skipped; the current step: pending, running or waiting'),
          started_at: nullableTimestamp.describe("the first attempt's claim (ISO 8601); null for a current step not claimed yet"),
          completed_at: nullableTimestamp.describe(
            'when its result was recorded (a delay or wait: when it ended) (ISO 8601); null for the current step',
          ),
          duration_ms: z.number().nullable().describe('completed_at - started_at, in milliseconds; null for the current step'),
          output: z
            .record(z.string(), z.unknown())
            .nullable()
            .describe('what the step produced (the email id of a send, the result of a condition, ...)'),
          error: z.string().nullable().describe('why the step failed; null otherwise'),
          wake_at: wakeAt.optional(),
          waiting_for: waitingFor.optional(),
        }),
      )
      .describe('every finished step in the order run, then the current step while running'),
  }),
);

export const runEnvelopeSchema = z.strictObject({ run: runDetailSchema.describe('the run with every step it took') });

/** The custom event record (spec: id `ae_`, name, user_id, email, data, source, created_at). */
export const eventAcceptedSchema = describing<AcceptEventResponse>()(
  z.strictObject({
    event: z
      .strictObject({
        id: idOf('ae').describe("the event's id (ae_...)"),
        name: z.string().describe('the event name (name, or its alias type)'),
        user_id: z.string().nullable().describe('who the event is about; null when not given'),
        email: z.string().nullable().describe('their address (lower-cased); null when not given'),
        data: z.record(z.string(), z.unknown()).describe('the event data ({} when not given)'),
        source: z.literal('api').describe('always `api` for API requests'),
        created_at: timestamp.describe('when the event was accepted (ISO 8601)'),
      })
      .describe('the event record'),
    matched_automations: z.number().int().describe('active automations whose trigger matched (a run was started for each)'),
    resumed_runs: z.number().int().describe('waiting runs resumed by this event'),
    cancelled_runs: z.number().int().describe("active runs cancelled through their trigger's cancel_on_events"),
  }),
);

/** POST /api/events with dry_run (a dashboard session): the trace of one automation run on the event. */
export const dryRunSchema = describing<AutomationDryRun>()(
  z.strictObject({
    dry_run: z.literal(true).describe('always true: nothing was run, sent or stored'),
    automation: z
      .strictObject({
        id: idOf('auto').describe("the automation's id (auto_...)"),
        name: z.string().describe('its name'),
        status: z.enum(AUTOMATION_STATUSES).describe('its status (a dry run works in any status)'),
        version: z.number().int().describe('the version walked (its current definition)'),
      })
      .describe('the automation dry-run'),
    event: z
      .strictObject({
        name: z.string().describe('the event name'),
        email: z.string().nullable().describe("the event's email (lower-cased); null when not given"),
        user_id: z.string().nullable().describe("the event's user_id; null when not given"),
        data: z.record(z.string(), z.unknown()).describe('the event data ({} when not given)'),
      })
      .describe('the event as given'),
    matches_trigger: z.boolean().describe("whether the event's name is the automation's trigger (it runs either way)"),
    status: z
      .enum(['completed', 'failed'])
      .describe('completed (the walk reached the end, or a false condition) or failed (a step failed)'),
    ended_early: z.boolean().describe('true when a false condition ended it'),
    error: z.string().nullable().describe("the failing step's error; null otherwise"),
    steps: z
      .array(
        z.strictObject({
          index: stepIndex,
          key: stepKey,
          type: stepTypeOf,
          status: z
            .enum(['completed', 'skipped', 'stubbed', 'failed'])
            .describe('stubbed (a send: built, not sent), skipped (a delay or wait), completed (a condition) or failed'),
          output: z
            .record(z.string(), z.unknown())
            .nullable()
            .describe(
              "what the step would do: the email a send would send, a delay's duration, a condition's result and trace; null when it failed",
            ),
          error: z.string().nullable().describe('why the step failed; null otherwise'),
        }),
      )
      .describe('each step reached, in the order reached'),
  }),
);
