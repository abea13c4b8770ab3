/** Response schemas of the automations group (automations, runs, POST /events) and the migrations group. */
import * as z from 'zod';
import { AUTOMATION_STATUSES, CONDITION_OPERATORS, type Condition, type toPublicAutomation } from '../../../domain/automations/automation';
import { RUN_STATUSES } from '../../../domain/automations/run';
import type { RunDetail, RunSummary } from '../../../domain/automations/run-view';
import { CATEGORIES } from '../../../domain/mail/category';
import { IMPORT_STATUSES } from '../../../domain/imports/report';
import { IMPORT_RESOURCES, PROVIDERS } from '../../../domain/imports/source';
import type { REPORT_COLUMNS, ReportRow } from '../../../domain/imports/report-rows';
import type { AutomationDryRun } from '../../../usecases/automations/automation-dry-run';
import type { AcceptEventResponse } from '../../../usecases/automations/runs/accept-event';
import type { PublicImport, toImportSummary } from '../../../domain/imports/public-import';
import { describing, idOf, nullableTimestamp, tagSchema, timestamp } from './common';

// ---------------------------------------------------------------------------------------------------
// Automations

const STEP_TYPE = z.enum(['send_email', 'delay', 'wait_for_event', 'condition']);

const OPERATOR_DOC = 'eq, neq (a string, number or boolean), gt, gte, lt, lte (a number), contains, starts_with, ends_with (a string), exists, is_empty (no value)';
const ALL_DOC = 'true when every condition is (1-20 rules or groups; groups nest at most 3 deep)';
const ANY_DOC = 'true when at least one condition is (1-20 rules or groups; groups nest at most 3 deep)';

/**
 * A condition: a rule `{field, operator, value?}` or a group `{all: [...]}` / `{any: [...]}` (nested at
 * most 3 deep). A component of its own (it is recursive); the request side documents steps with it too.
 */
export const conditionSchema: z.ZodType<Condition> = z.union([
  z.strictObject({
    field: z.string().describe('event.name, event.email, event.user_id or event.data.<key>'),
    operator: z.enum(CONDITION_OPERATORS).describe(OPERATOR_DOC),
    value: z.union([z.string(), z.number(), z.boolean()]).optional().describe('absent for exists and is_empty'),
  }),
  z.strictObject({
    get all() {
      return z.array(conditionSchema).min(1).max(20).describe(ALL_DOC);
    },
  }),
  z.strictObject({
    get any() {
      return z.array(conditionSchema).min(1).max(20).describe(ANY_DOC);
    },
  }),
]);

const stepType = (type: 'send_email' | 'delay' | 'wait_for_event' | 'condition') => z.literal(type).describe(`always \`${type}\``);
const stepBase = { key: z.string().describe('unique in the automation'), next: z.string().optional().describe('the step that follows (default: the next in the list)') };

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
        variables: z.record(z.string(), z.unknown()).optional().describe('values of its placeholders (strings may hold {{event.*}} placeholders)'),
      })
      .optional()
      .describe("a template whose published version at run time is the content"),
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
  z.strictObject({
    ...stepBase,
    type: stepType('condition'),
    field: z.string().optional().describe('a rule: event.name, event.email, event.user_id or event.data.<key>'),
    operator: z.enum(CONDITION_OPERATORS).optional().describe(`a rule: ${OPERATOR_DOC}`),
    value: z.union([z.string(), z.number(), z.boolean()]).optional().describe('a rule: the value compared with (absent for exists and is_empty)'),
    all: z.array(conditionSchema).optional().describe(`a group: ${ALL_DOC}`),
    any: z.array(conditionSchema).optional().describe(`a group: ${ANY_DOC}`),
  }).describe('a rule ({field, operator, value?}) or a group ({all} or {any}) beside key, type and next: a false condition ends the run'),
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
      .describe("its reach: the sending domains of the key that created or last changed it (its allowed_domains); its runs send only from these. null: any of the account's domains"),
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
    .describe('running; completed (every step ran, a false condition, or a wait timed out with on_timeout end); failed or cancelled (see error)'),
  current_step: z
    .strictObject({
      index: stepIndex,
      key: stepKey,
      type: stepTypeOf,
      state: z.enum(['pending', 'running', 'waiting']).describe('pending (handed to the worker), running (an attempt is doing it) or waiting (a delay or wait)'),
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
      .strictObject({ ...runEventFields, data: z.record(z.string(), z.unknown()).describe("the event's data (what conditions and {{event.data.*}} read)") })
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
          completed_at: nullableTimestamp.describe('when its result was recorded (a delay or wait: when it ended) (ISO 8601); null for the current step'),
          duration_ms: z.number().nullable().describe('completed_at - started_at, in milliseconds; null for the current step'),
          output: z.record(z.string(), z.unknown()).nullable().describe('what the step produced (the email id of a send, the result of a condition, ...)'),
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
    status: z.enum(['completed', 'failed']).describe('completed (the walk reached the end, or a false condition) or failed (a step failed)'),
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
            .describe('what the step would do: the email a send would send, a delay\'s duration, a condition\'s result and trace; null when it failed'),
          error: z.string().nullable().describe('why the step failed; null otherwise'),
        }),
      )
      .describe('each step reached, in the order reached'),
  }),
);

// ---------------------------------------------------------------------------------------------------
// Migrations (imports)

const count = z.number().int();
const countTotals = z.strictObject({
  found: count.describe('items read at the provider'),
  imported: count.describe('items imported (in a dry run: that would be)'),
  skipped: count.describe('items already here, skipped'),
  failed: count.describe('items that could not be imported (see their message)'),
});
const templateTotals = z.strictObject({
  found: count.describe('templates read at the provider (layouts merged, not counted)'),
  imported: count.describe('templates imported and published (in a dry run: that would be)'),
  skipped: count.describe('templates whose alias is already here, skipped'),
  failed: count.describe('templates that could not be converted or imported'),
  needs_attention: count.describe('templates imported as drafts to review (blocks or an unsubscribe link)'),
});
const suppressionTotals = z.strictObject({
  found: count.describe("entries read from the provider's lists"),
  imported: count.describe('entries written: suppressions and opt-outs (in a dry run: that would be)'),
  already_suppressed: count.describe('addresses already on the list'),
  skipped: count.describe('entries not imported (see skipped_reasons)'),
  failed: count.describe('entries that could not be written'),
  bounce: count.describe('imported as bounce suppressions (hard bounces, invalid addresses)'),
  complaint: count.describe('imported as complaint suppressions'),
  unsubscribe: count.describe('imported as unsubscribe suppressions (from all mail)'),
  manual: count.describe('imported as manual suppressions'),
  product_opt_out: count.describe('imported as product category opt-outs (scoped opt-outs: groups, streams, tags)'),
});
const itemStatus = () =>
  z
    .enum(['imported', 'would_import', 'needs_attention', 'skipped', 'failed'])
    .describe('imported, would_import (dry run), needs_attention (imported as a draft), skipped (already here) or failed (see message)');
const itemMessage = () => z.string().nullable().describe('why it failed or was skipped; null otherwise');

const headFields = {
  object: z.literal('migration').describe('always `migration`'),
  id: idOf('mig').describe("the import's id (mig_...)"),
  provider: z.enum(PROVIDERS).describe('the provider imported from'),
  region: z.enum(['us', 'eu']).describe("the provider's region (us for Postmark)"),
  resources: z.array(z.enum(IMPORT_RESOURCES)).describe('what is imported, in the order worked'),
  dry_run: z.boolean().describe('true for a preview: nothing written, and not kept'),
  status: z
    .enum(IMPORT_STATUSES)
    .describe('in_progress while has_more; then completed, partial (a resource unreadable or some items failed) or failed (no resource readable, or every item failed)'),
  has_more: z.boolean().describe('repeat the same body with cursor: next_cursor while true'),
  next_cursor: z.string().nullable().describe('the cursor of the next request; null once the import is done'),
  requests: count.describe('requests worked so far'),
  created_at: timestamp.describe('when the import started (ISO 8601)'),
  updated_at: timestamp.describe('when it last changed (ISO 8601)'),
};

export const migrationSummarySchema = describing<ReturnType<typeof toImportSummary>>()(
  z.strictObject({
    ...headFields,
    totals: z
      .strictObject({
        domains: countTotals.describe('sending domains'),
        webhooks: countTotals.describe('webhook endpoints (one per distinct URL)'),
        templates: templateTotals.describe('templates'),
        suppressions: suppressionTotals.describe('suppression list entries'),
      })
      .describe('the counts so far, per resource'),
  }),
);

const dnsChange = z.strictObject({
  action: z.enum(['add', 'update', 'keep', 'done']).describe('add (nothing there), update (see current), keep (leave as it is) or done (already published)'),
  type: z.enum(['TXT', 'CNAME', 'MX']).describe('the DNS record type'),
  host: z.string().describe('fully qualified host name'),
  value: z.string().describe('the value to publish (add, update), that is published (done), or to leave (keep)'),
  purpose: z.string().describe("ownership, dkim, return_path, spf, dmarc, inbound_mx; provider (the provider's record) or other (someone else's)"),
  current: z.string().nullable().describe('what is published there now (values joined with " | "); null when nothing or unchecked'),
  note: z.string().nullable().describe('an explanation for people (e.g. how SPF was merged); null when none'),
});

export const migrationSchema = describing<PublicImport>()(
  z.strictObject({
    ...headFields,
    retry_after_seconds: z.number().int().optional().describe('the provider rate-limited the import: wait this long before continuing'),
    domains: z
      .strictObject({
        totals: countTotals.describe('the counts'),
        items: z
          .array(
            z.strictObject({
              name: z.string().describe('the domain name'),
              status: itemStatus(),
              domain_id: idOf('dom').nullable().describe('the domain here (dom_...); null when none was created'),
              records: z.array(z.unknown()).describe('the DNS records to publish (as on the domain)'),
              dns_plan: z
                .strictObject({
                  checked: z.boolean().describe('false when DNS could not be read: every record of ours is then an add'),
                  changes: z.array(dnsChange).describe('what to do at each host, given what is published'),
                  keep_old_records: z.string().describe("which of the provider's records to keep until the last email through it is delivered, for people"),
                })
                .nullable()
                .describe('the DNS changes to publish; null in a preview or when no plan was worked out (e.g. a failed domain)'),
              dashboard_url: z.string().nullable().describe("the domain's page in the dashboard; null when none was created"),
              message: itemMessage(),
            }),
          )
          .describe('one item per domain, in the order worked'),
      })
      .describe('sending domains'),
    webhooks: z
      .strictObject({
        totals: countTotals.describe('the counts'),
        items: z
          .array(
            z.strictObject({
              url: z.string().describe('the endpoint URL (one webhook per distinct URL)'),
              status: itemStatus(),
              webhook_id: idOf('wh').nullable().describe('the endpoint here (wh_...); null when none was created'),
              enabled: z.boolean().describe('false: imported webhooks start disabled (enable them after checking our signature)'),
              secret: z.string().nullable().describe('the signing secret: shown once, in the answer of the request that created the webhook'),
              events: z.array(z.string()).describe("our event types the provider's events map to"),
              unmapped_events: z.array(z.string()).describe("the provider's events with no equivalent here"),
              message: itemMessage(),
            }),
          )
          .describe('one item per distinct URL'),
      })
      .describe('webhook endpoints'),
    templates: z
      .strictObject({
        totals: templateTotals.describe('the counts'),
        items: z
          .array(
            z.strictObject({
              source_id: z.string().describe("the template's id at the provider"),
              name: z.string().describe("the template's name"),
              alias: z.string().describe('its alias here'),
              status: itemStatus(),
              template_id: idOf('tpl').nullable().describe('the template here (tpl_...); null when none was created'),
              published: z.boolean().describe('whether it was published (drafts are not: sends fail until published)'),
              variables: z.array(z.string()).describe('its placeholder names, converted to flat `{{name}}`'),
              notes: z.array(z.string()).describe('what the conversion changed or left to review'),
              message: itemMessage(),
            }),
          )
          .describe('one item per template (layouts are merged into them)'),
      })
      .describe('templates'),
    suppressions: z
      .strictObject({
        totals: suppressionTotals.describe('the counts'),
        skipped_reasons: z.record(z.string(), count).describe('skipped entries by reason: blocked, temporary_failure, invalid_address'),
        estimated: z.boolean().describe("true when a dry run counted only the first page of a list that has more"),
      })
      .describe('suppression list entries'),
    errors: z
      .array(
        z.strictObject({
          resource: z.enum(IMPORT_RESOURCES).describe('the resource'),
          message: z.string().describe('what could not be read and why'),
        }),
      )
      .describe('resources (or lists) that could not be read; the others still import'),
    attention: z
      .array(
        z.strictObject({
          resource: z.enum(IMPORT_RESOURCES).describe('the resource'),
          item: z.string().describe('the domain name, webhook URL or template alias concerned'),
          message: z.string().describe('what to do'),
        }),
      )
      .describe('what a person must do: publish DNS changes, enable webhooks, review drafts'),
    template_map: z
      .array(
        z.strictObject({
          source_id: z.string().describe("the template's id at the provider"),
          alias: z.string().describe('its alias here'),
        }),
      )
      .describe('provider template id to our alias, for every template imported or already here'),
    code_changes: z
      .array(
        z.strictObject({
          stack: z.string().describe('node, python, curl or smtp'),
          label: z.string().describe('what changes, for people'),
          diff: z.string().describe('a unified diff replacing the provider call with ours'),
        }),
      )
      .describe('diffs for common stacks'),
    agent_prompt: z.string().describe('a text to paste into a coding agent to finish the migration'),
  }),
);

export const migrationEnvelopeSchema = z.strictObject({ migration: migrationSchema.describe('the report so far, every request merged') });

const reportRow = describing<ReportRow>()(
  z.strictObject({
    resource: z.string().describe('domains, webhooks, templates or suppressions'),
    item: z.string().describe('the domain name, webhook URL, template alias, or suppression count (reason); empty for an unreadable resource'),
    status: z.string().describe("the item's status (imported, skipped, ...), or error for an unreadable resource"),
    id: z.string().describe('our id of the item; empty when none'),
    count: count.describe('1 per item; the number of entries for a suppression count; 0 for an error'),
    message: z.string().describe('why it failed or was skipped, notes; empty when none'),
  }),
);

/** GET /migrations/{id}/report?format=json. */
export const migrationReportSchema = z.strictObject({
  migration: migrationSummarySchema.describe('the import and its totals'),
  columns: z
    .array(z.enum(['resource', 'item', 'status', 'id', 'count', 'message'] satisfies (typeof REPORT_COLUMNS)[number][]))
    .describe("the CSV's columns, in order"),
  rows: z.array(reportRow).describe('the rows of the CSV, as objects'),
});
