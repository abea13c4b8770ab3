/**
 * An automation (docs/automations.md): a trigger (a custom event's name, and events that cancel a
 * user's runs) and ordered steps. A definition is valid whenever it is stored (every save validates
 * fully: shared/domain/automations/validate-definition.ts), so activating only changes the status. `version`
 * counts the definition's edits (name, trigger, steps); runs will be pinned to the version they started
 * with. Pure.
 */
import * as z from 'zod';
import { newId, isId } from '../ids';
import { CATEGORIES } from '../mail/category';
import { modelSchema } from '../model-schema';
import { DAY_MS, MINUTE_MS } from './duration';

export const AUTOMATION_STATUSES = ['draft', 'active', 'paused'] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];

export const STEP_TYPES = ['send_email', 'delay', 'wait_for_event', 'condition'] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const CONDITION_OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'contains',
  'starts_with',
  'ends_with',
  'exists',
  'is_empty',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];
/** Operators that compare with nothing: `value` is refused. */
export const UNARY_OPERATORS: readonly ConditionOperator[] = ['exists', 'is_empty'];
/** Operators that compare numbers: `value` must be a number. */
export const NUMERIC_OPERATORS: readonly ConditionOperator[] = ['gt', 'gte', 'lt', 'lte'];
/** Operators on text: `value` must be a string. */
export const TEXT_OPERATORS: readonly ConditionOperator[] = ['contains', 'starts_with', 'ends_with'];

/** Limits (docs/automations.md, "Limits"). */
export const AUTOMATION_LIMITS = {
  automationsPerAccount: 100,
  nameChars: 200,
  eventNameChars: 100,
  cancelOnEvents: 10,
  steps: 50,
  stepKeyChars: 64,
  delayMinMs: MINUTE_MS,
  delayMaxMs: 365 * DAY_MS,
  waitMinMs: MINUTE_MS,
  waitMaxMs: 30 * DAY_MS,
  /** Conditions in one all/any group. */
  conditionsPerGroup: 20,
  /** all/any groups nest at most this deep (the step's own group is level 1). */
  conditionDepth: 3,
  htmlBytes: 100 * 1024,
  textBytes: 50 * 1024,
  /** The whole definition (trigger and steps) as JSON: keeps the item far below DynamoDB's 400 KB. */
  definitionBytes: 256 * 1024,
} as const;

/** A custom event's name: 1-100 of letters, digits, `_ . : -`. */
export const EVENT_NAME = /^[A-Za-z0-9_.:-]{1,100}$/;
/** A step's key: 1-64 of lower-case letters, digits, `_` and `-`. */
export const STEP_KEY = /^[a-z0-9_-]{1,64}$/;
/** Words `on_timeout` gives a meaning to; no step may be keyed by them. */
export const RESERVED_STEP_KEYS = ['end', 'continue'] as const;

export interface Trigger {
  event: string;
  cancel_on_events: string[];
}

interface StepBase {
  key: string;
  /** The step to go to next (a key); absent: the following step (the last step ends the run). */
  next?: string;
}

export interface SendEmailStep extends StepBase {
  type: 'send_email';
  /** Recipients; each may hold placeholders. Default `["{{event.email}}"]`. */
  to: string[];
  from?: string;
  reply_to?: string[];
  /** Inline content (without a template). */
  subject?: string;
  html?: string;
  text?: string;
  /** A template by alias; its published version at run time is the content. */
  template?: { id: string; variables?: Record<string, unknown> };
  category?: 'transactional' | 'product' | 'newsletter';
  unsubscribe?: boolean;
  tags?: { name: string; value: string }[];
  tenant?: string;
}

export interface DelayStep extends StepBase {
  type: 'delay';
  duration: string;
}

export interface WaitForEventStep extends StepBase {
  type: 'wait_for_event';
  event: string;
  timeout: string;
  /** `end` (default) ends the run, `continue` goes on as if the event came, or a step key to jump to. */
  on_timeout: string;
}

export interface ConditionRule {
  field: string;
  operator: ConditionOperator;
  value?: string | number | boolean;
}
export type ConditionGroup = { all: Condition[] } | { any: Condition[] };
export type Condition = ConditionRule | ConditionGroup;

export type ConditionStep = StepBase & { type: 'condition' } & Condition;

export type Step = SendEmailStep | DelayStep | WaitForEventStep | ConditionStep;

/**
 * A step as stored (a run's copy of the steps: shared/adapters/store/runs.ts decodes with it): what the
 * request schemas (./validate-definition.ts) leave after checking and filling defaults, as plain shapes, each checked
 * against its interface.
 */
const stepBase = { key: z.string(), next: z.string().optional() };

const sendEmailStepSchema = modelSchema<SendEmailStep>()(
  z.object({
    ...stepBase,
    type: z.literal('send_email'),
    to: z.array(z.string()),
    from: z.string().optional(),
    reply_to: z.array(z.string()).optional(),
    subject: z.string().optional(),
    html: z.string().optional(),
    text: z.string().optional(),
    template: z.object({ id: z.string(), variables: z.record(z.string(), z.unknown()).optional() }).optional(),
    category: z.enum(CATEGORIES).optional(),
    unsubscribe: z.boolean().optional(),
    tags: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
    tenant: z.string().optional(),
  }),
);

const delayStepSchema = modelSchema<DelayStep>()(z.object({ ...stepBase, type: z.literal('delay'), duration: z.string() }));

const waitForEventStepSchema = modelSchema<WaitForEventStep>()(
  z.object({ ...stepBase, type: z.literal('wait_for_event'), event: z.string(), timeout: z.string(), on_timeout: z.string() }),
);

const conditionRule = {
  field: z.string(),
  operator: z.enum(CONDITION_OPERATORS),
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
};

export const conditionSchema: z.ZodType<Condition> = z.union([
  modelSchema<ConditionRule>()(z.object(conditionRule)),
  z.object({
    get all() {
      return z.array(conditionSchema);
    },
  }),
  z.object({
    get any() {
      return z.array(conditionSchema);
    },
  }),
]);

const conditionStepSchemas = [
  modelSchema<StepBase & { type: 'condition' } & ConditionRule>()(
    z.object({ ...stepBase, type: z.literal('condition'), ...conditionRule }),
  ),
  modelSchema<StepBase & { type: 'condition'; all: Condition[] }>()(
    z.object({ ...stepBase, type: z.literal('condition'), all: z.array(conditionSchema) }),
  ),
  modelSchema<StepBase & { type: 'condition'; any: Condition[] }>()(
    z.object({ ...stepBase, type: z.literal('condition'), any: z.array(conditionSchema) }),
  ),
] as const;

/** A union, not a discriminated one: the three shapes of a condition step share their `type`. */
export const stepSchema: z.ZodType<Step> = z.union([sendEmailStepSchema, delayStepSchema, waitForEventStepSchema, ...conditionStepSchemas]);

export interface AutomationDefinition {
  name: string;
  trigger: Trigger;
  steps: Step[];
}

export interface Automation extends AutomationDefinition {
  /** `auto_<ulid>`. */
  id: string;
  account_id: string;
  status: AutomationStatus;
  /** 1 at creation, + 1 for each edit of name, trigger or steps (status changes leave it). */
  version: number;
  created_at: string;
  updated_at: string;
  /** When it was last activated; null while it never was. */
  activated_at: string | null;
  /**
   * Its reach: the sending domains of whoever created or last changed its definition (their key's
   * allowed_domains), which its runs keep and send within (docs/automations.md, "Reach"); null: any domain
   * of the account (an unlimited key, a dashboard session, or an automation saved before reach was recorded).
   */
  allowed_domains: string[] | null;
}

export function newAutomationId(now: number): string {
  return newId('auto', now);
}

export function isAutomationId(value: string): boolean {
  return isId('auto', value);
}

/** True when a stored definition would change: name, trigger or steps differ. */
export function sameDefinition(a: AutomationDefinition, b: AutomationDefinition): boolean {
  return (
    a.name === b.name && JSON.stringify(a.trigger) === JSON.stringify(b.trigger) && JSON.stringify(a.steps) === JSON.stringify(b.steps)
  );
}

/** The API's view of an automation. */
export function toPublicAutomation(automation: Automation) {
  return {
    object: 'automation' as const,
    id: automation.id,
    name: automation.name,
    status: automation.status,
    trigger: { event: automation.trigger.event, cancel_on_events: automation.trigger.cancel_on_events },
    steps: automation.steps,
    version: automation.version,
    created_at: automation.created_at,
    updated_at: automation.updated_at,
    activated_at: automation.activated_at,
    allowed_domains: automation.allowed_domains,
  };
}
