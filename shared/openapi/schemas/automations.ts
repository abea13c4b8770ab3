/** Response schemas of the automations group (automations, runs, POST /events) and the migrations group. */
import * as z from 'zod';
import { AUTOMATION_STATUSES, CONDITION_OPERATORS, type Condition, type toPublicAutomation } from '../../domain/automations/automation';
import { RUN_STATUSES } from '../../domain/automations/run';
import type { RunDetail, RunSummary } from '../../domain/automations/run-view';
import { CATEGORIES } from '../../domain/emails/send-request';
import { IMPORT_STATUSES } from '../../domain/migrations/report';
import { IMPORT_RESOURCES, PROVIDERS } from '../../domain/migrations/source';
import type { REPORT_COLUMNS, ReportRow } from '../../domain/migrations/report-rows';
import type { AutomationDryRun } from '../../usecases/automation-dry-run';
import type { AcceptEventResponse } from '../../usecases/runs/accept-event';
import type { PublicImport, toImportSummary } from '../../usecases/migrations/import-report';
import { describing, idOf, nullableTimestamp, tagSchema, timestamp } from './common';

// ---------------------------------------------------------------------------------------------------
// Automations

const STEP_TYPE = z.enum(['send_email', 'delay', 'wait_for_event', 'condition']);

/**
 * A condition: a rule `{field, operator, value?}` or a group `{all: [...]}` / `{any: [...]}` (nested at
 * most 3 deep). A component of its own (it is recursive); the request side documents steps with it too.
 */
export const conditionSchema: z.ZodType<Condition> = z.union([
  z.strictObject({
    field: z.string().describe('event.name, event.email, event.user_id or event.data.<key>'),
    operator: z.enum(CONDITION_OPERATORS),
    value: z.union([z.string(), z.number(), z.boolean()]).optional().describe('absent for exists and is_empty'),
  }),
  z.strictObject({
    get all() {
      return z.array(conditionSchema).min(1).max(20);
    },
  }),
  z.strictObject({
    get any() {
      return z.array(conditionSchema).min(1).max(20);
    },
  }),
]);

const stepBase = { key: z.string().describe('unique in the automation'), next: z.string().optional().describe('the step that follows (default: the next in the list)') };

/** A step as stored and returned (defaults applied: a send's `to`, a wait's `on_timeout`). */
export const stepSchema = z.union([
  z.strictObject({
    ...stepBase,
    type: z.literal('send_email'),
    to: z.array(z.string()),
    from: z.string().optional(),
    reply_to: z.array(z.string()).optional(),
    subject: z.string().optional(),
    html: z.string().optional(),
    text: z.string().optional(),
    template: z.strictObject({ id: z.string(), variables: z.record(z.string(), z.unknown()).optional() }).optional(),
    category: z.enum(CATEGORIES).optional(),
    unsubscribe: z.boolean().optional(),
    tags: z.array(tagSchema).optional(),
    tenant: z.string().optional(),
  }),
  z.strictObject({ ...stepBase, type: z.literal('delay'), duration: z.string().describe('e.g. "3 days", "90 minutes"') }),
  z.strictObject({
    ...stepBase,
    type: z.literal('wait_for_event'),
    event: z.string(),
    timeout: z.string(),
    on_timeout: z.string().describe('end, continue or a step key'),
  }),
  z.strictObject({
    ...stepBase,
    type: z.literal('condition'),
    field: z.string().optional(),
    operator: z.enum(CONDITION_OPERATORS).optional(),
    value: z.union([z.string(), z.number(), z.boolean()]).optional(),
    all: z.array(conditionSchema).optional(),
    any: z.array(conditionSchema).optional(),
  }).describe('a rule ({field, operator, value?}) or a group ({all} or {any}) beside key, type and next: a false condition ends the run'),
]);

export const automationSchema = describing<ReturnType<typeof toPublicAutomation>>()(
  z.strictObject({
    object: z.literal('automation'),
    id: idOf('auto'),
    name: z.string(),
    status: z.enum(AUTOMATION_STATUSES),
    trigger: z.strictObject({ event: z.string(), cancel_on_events: z.array(z.string()) }),
    steps: z.array(stepSchema),
    version: z.number().int().describe('incremented by every change'),
    created_at: timestamp,
    updated_at: timestamp,
    activated_at: nullableTimestamp,
  }),
);

export const automationEnvelopeSchema = z.strictObject({ automation: automationSchema });

const runEvent = z.strictObject({ id: idOf('ae'), name: z.string(), user_id: z.string().nullable(), email: z.string().nullable(), created_at: timestamp });
const currentState = z.enum(['pending', 'running', 'waiting']);

const runSummaryFields = {
  object: z.literal('automation_run'),
  id: idOf('run'),
  automation_id: idOf('auto'),
  automation_version: z.number().int(),
  status: z.enum(RUN_STATUSES),
  current_step: z
    .strictObject({ index: z.number().int(), key: z.string(), type: STEP_TYPE, state: currentState, wake_at: nullableTimestamp, waiting_for: z.string().nullable() })
    .nullable()
    .describe('the step a running run is at; null once it ended'),
  steps_completed: z.number().int(),
  error: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  ended_at: nullableTimestamp,
};

export const runSummarySchema = describing<RunSummary>()(z.strictObject({ ...runSummaryFields, event: runEvent }));

export const runDetailSchema = describing<RunDetail>()(
  z.strictObject({
    ...runSummaryFields,
    event: runEvent.extend({ data: z.record(z.string(), z.unknown()) }),
    steps: z.array(
      z.strictObject({
        index: z.number().int(),
        key: z.string(),
        type: STEP_TYPE,
        status: z.enum(['completed', 'failed', 'skipped', 'pending', 'running', 'waiting']),
        started_at: nullableTimestamp,
        completed_at: nullableTimestamp,
        duration_ms: z.number().nullable(),
        output: z.record(z.string(), z.unknown()).nullable().describe('what the step produced (the email id of a send, the result of a condition, ...)'),
        error: z.string().nullable(),
        wake_at: nullableTimestamp.optional(),
        waiting_for: z.string().nullable().optional(),
      }),
    ),
  }),
);

export const runEnvelopeSchema = z.strictObject({ run: runDetailSchema });

/** The custom event record (spec: id `ae_`, name, user_id, email, data, source, created_at). */
export const eventAcceptedSchema = describing<AcceptEventResponse>()(
  z.strictObject({
    event: z.strictObject({
      id: idOf('ae'),
      name: z.string(),
      user_id: z.string().nullable(),
      email: z.string().nullable(),
      data: z.record(z.string(), z.unknown()),
      source: z.literal('api'),
      created_at: timestamp,
    }),
    matched_automations: z.number().int().describe('active automations whose trigger matched (a run was started for each)'),
    resumed_runs: z.number().int().describe('waiting runs resumed by this event'),
    cancelled_runs: z.number().int().describe("active runs cancelled through their trigger's cancel_on_events"),
  }),
);

/** POST /api/events with dry_run (a dashboard session): the trace of one automation run on the event. */
export const dryRunSchema = describing<AutomationDryRun>()(
  z.strictObject({
    dry_run: z.literal(true),
    automation: z.strictObject({ id: idOf('auto'), name: z.string(), status: z.enum(AUTOMATION_STATUSES), version: z.number().int() }),
    event: z.strictObject({ name: z.string(), email: z.string().nullable(), user_id: z.string().nullable(), data: z.record(z.string(), z.unknown()) }),
    matches_trigger: z.boolean(),
    status: z.enum(['completed', 'failed']),
    ended_early: z.boolean(),
    error: z.string().nullable(),
    steps: z.array(
      z.strictObject({
        index: z.number().int(),
        key: z.string(),
        type: STEP_TYPE,
        status: z.enum(['completed', 'skipped', 'stubbed', 'failed']),
        output: z.record(z.string(), z.unknown()).nullable(),
        error: z.string().nullable(),
      }),
    ),
  }),
);

// ---------------------------------------------------------------------------------------------------
// Migrations (imports)

const count = z.number().int();
const countTotals = z.strictObject({ found: count, imported: count, skipped: count, failed: count });
const templateTotals = countTotals.extend({ needs_attention: count });
const suppressionTotals = z.strictObject({
  found: count,
  imported: count,
  already_suppressed: count,
  skipped: count,
  failed: count,
  bounce: count,
  complaint: count,
  unsubscribe: count,
  manual: count,
  product_opt_out: count,
});
const itemStatus = z.enum(['imported', 'would_import', 'needs_attention', 'skipped', 'failed']);

const headFields = {
  object: z.literal('migration'),
  id: idOf('mig'),
  provider: z.enum(PROVIDERS),
  region: z.enum(['us', 'eu']),
  resources: z.array(z.enum(IMPORT_RESOURCES)),
  dry_run: z.boolean(),
  status: z.enum(IMPORT_STATUSES),
  has_more: z.boolean().describe('repeat the same body with cursor: next_cursor while true'),
  next_cursor: z.string().nullable(),
  requests: count,
  created_at: timestamp,
  updated_at: timestamp,
};

export const migrationSummarySchema = describing<ReturnType<typeof toImportSummary>>()(
  z.strictObject({
    ...headFields,
    totals: z.strictObject({ domains: countTotals, webhooks: countTotals, templates: templateTotals, suppressions: suppressionTotals }),
  }),
);

const dnsChange = z.strictObject({
  action: z.enum(['add', 'update', 'keep', 'done']),
  type: z.enum(['TXT', 'CNAME', 'MX']),
  host: z.string(),
  value: z.string(),
  purpose: z.string(),
  current: z.string().nullable(),
  note: z.string().nullable(),
});

export const migrationSchema = describing<PublicImport>()(
  z.strictObject({
    ...headFields,
    retry_after_seconds: z.number().int().optional().describe('the provider rate-limited the import: wait this long before continuing'),
    domains: z.strictObject({
      totals: countTotals,
      items: z.array(
        z.strictObject({
          name: z.string(),
          status: itemStatus,
          domain_id: idOf('dom').nullable(),
          records: z.array(z.unknown()).describe('the DNS records to publish (as on the domain)'),
          dns_plan: z.strictObject({ checked: z.boolean(), changes: z.array(dnsChange), keep_old_records: z.string() }).nullable(),
          dashboard_url: z.string().nullable(),
          message: z.string().nullable(),
        }),
      ),
    }),
    webhooks: z.strictObject({
      totals: countTotals,
      items: z.array(
        z.strictObject({
          url: z.string(),
          status: itemStatus,
          webhook_id: idOf('wh').nullable(),
          enabled: z.boolean(),
          secret: z.string().nullable().describe('the signing secret: shown once, in the answer of the request that created the webhook'),
          events: z.array(z.string()),
          unmapped_events: z.array(z.string()),
          message: z.string().nullable(),
        }),
      ),
    }),
    templates: z.strictObject({
      totals: templateTotals,
      items: z.array(
        z.strictObject({
          source_id: z.string(),
          name: z.string(),
          alias: z.string(),
          status: itemStatus,
          template_id: idOf('tpl').nullable(),
          published: z.boolean(),
          variables: z.array(z.string()),
          notes: z.array(z.string()),
          message: z.string().nullable(),
        }),
      ),
    }),
    suppressions: z.strictObject({ totals: suppressionTotals, skipped_reasons: z.record(z.string(), count), estimated: z.boolean() }),
    errors: z.array(z.strictObject({ resource: z.enum(IMPORT_RESOURCES), message: z.string() })),
    attention: z.array(z.strictObject({ resource: z.enum(IMPORT_RESOURCES), item: z.string(), message: z.string() })),
    template_map: z.array(z.strictObject({ source_id: z.string(), alias: z.string() })),
    code_changes: z.array(z.strictObject({ stack: z.string(), label: z.string(), diff: z.string() })),
    agent_prompt: z.string(),
  }),
);

export const migrationEnvelopeSchema = z.strictObject({ migration: migrationSchema });

const reportRow = describing<ReportRow>()(
  z.strictObject({ resource: z.string(), item: z.string(), status: z.string(), id: z.string(), count, message: z.string() }),
);

/** GET /migrations/{id}/report?format=json. */
export const migrationReportSchema = z.strictObject({
  migration: migrationSummarySchema,
  columns: z.array(z.enum(['resource', 'item', 'status', 'id', 'count', 'message'] satisfies (typeof REPORT_COLUMNS)[number][])),
  rows: z.array(reportRow),
});
