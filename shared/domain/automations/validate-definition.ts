/**
 * Validation of an automation's definition (docs/automations.md, "Validation"), pure: the shape of the
 * trigger and of each step (zod, strict: unknown fields are refused), placeholders, then the rules
 * between steps: unique keys, `next`/`on_timeout` naming existing steps, no cycles, a trigger that
 * does not cancel itself, the size of the whole. Every problem is `{field, message}` with the path of
 * the request body (`steps.3.duration`). The run engine reuses `validateDefinition` and the helpers
 * (`successorsOf`) on stored definitions.
 */
import * as z from 'zod';
import { parseBareSender, parseMailbox } from '../mail/address';
import { MAX_RECIPIENTS, MAX_TAGS } from '../emails/send-request';
import { CATEGORIES } from '../mail/category';
import { TEMPLATE_ALIAS } from '../templates/template';
import { VARIABLE_NAME } from '../templates/render';
import { issuesToFields } from '../request-validation';
import { isStorableNumber, STORABLE_NUMBER_RULE } from '../bounds';
import {
  AUTOMATION_LIMITS as LIMITS,
  CONDITION_OPERATORS,
  EVENT_NAME,
  NUMERIC_OPERATORS,
  RESERVED_STEP_KEYS,
  STEP_KEY,
  STEP_TYPES,
  TEXT_OPERATORS,
  UNARY_OPERATORS,
  type Condition,
  type Step,
  type Trigger,
} from './automation';
import { durationWithin, DURATION_FORMS } from './duration';

export interface FieldProblem {
  field: string;
  message: string;
}

// ---------------------------------------------------------------------------------------------------
// Placeholders: `{{event.name}}`, `{{event.email}}`, `{{event.user_id}}`, `{{event.data.<key>[.<key>...]}}`

const DATA_PATH = /^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,7}$/;
const EVENT_FIELDS = ['name', 'email', 'user_id'] as const;
export const PLACEHOLDER_FORMS = '{{event.name}}, {{event.email}}, {{event.user_id}} or {{event.data.<key>}}';
/** One `{{...}}` (no braces inside; group 1 the untrimmed inner text). Global: use with matchAll/replace. */
export const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

/** Why `path` (without braces, e.g. `event.data.plan`) cannot name a value of the event; null when it can. */
export function eventPathProblem(path: string): string | null {
  if (!path.startsWith('event.')) return `"${path}" is not an event value: use ${PLACEHOLDER_FORMS.replace(/[{}]/g, '')}`;
  const rest = path.slice('event.'.length);
  if ((EVENT_FIELDS as readonly string[]).includes(rest)) return null;
  if (rest.startsWith('data.')) {
    return DATA_PATH.test(rest.slice('data.'.length))
      ? null
      : `"${path}": data keys are 1-64 letters, digits, _ or -, dot-separated for nested objects (at most 8 deep)`;
  }
  return `unknown event value "${path}": the event has name, email, user_id and data.<key>`;
}

/**
 * Problems with the `{{...}}` placeholders of one text: each must name an event value
 * (`unsubscribe_url` too where `allowUnsubscribe`: html and text, filled by the send); a `{{` that is
 * never closed is refused. Whitespace inside the braces is allowed (`{{ event.name }}`).
 */
export function placeholderProblems(text: string, allowUnsubscribe = false): string[] {
  const problems: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const inner = match[1]!.trim();
    if (allowUnsubscribe && inner === 'unsubscribe_url') continue;
    if (!inner.startsWith('event')) {
      problems.push(
        `{{${inner}}} is not filled in automations: use ${PLACEHOLDER_FORMS}${allowUnsubscribe ? ' (or {{unsubscribe_url}})' : ''}`,
      );
      continue;
    }
    const problem = eventPathProblem(inner);
    if (problem) problems.push(`{{${inner}}}: ${problem}`);
  }
  if (text.replace(PLACEHOLDER, '').includes('{{')) problems.push(`a "{{" is never closed by "}}": placeholders are ${PLACEHOLDER_FORMS}`);
  return problems.slice(0, 10);
}

export function hasPlaceholder(text: string): boolean {
  return /\{\{[^{}]*\}\}/.test(text);
}

/** A string field that may hold placeholders (and at most `max` characters). */
const templated = (field: string, max: number, options: { allowUnsubscribe?: boolean; maxBytes?: number } = {}) =>
  z
    .string({ error: `${field} must be a string` })
    .min(1, `${field} must not be empty`)
    .max(max, `${field} is at most ${max} characters`)
    .superRefine((value, ctx) => {
      if (options.maxBytes !== undefined && Buffer.byteLength(value, 'utf8') > options.maxBytes) {
        ctx.addIssue({ code: 'custom', message: `${field} is at most ${options.maxBytes / 1024} KB (${options.maxBytes} bytes of UTF-8)` });
      }
      for (const message of placeholderProblems(value, options.allowUnsubscribe)) ctx.addIssue({ code: 'custom', message });
    });

/** An address (or, with `bare`, a bare local part), or a text with placeholders filled at run time. */
const address = (field: string, bare = false) =>
  templated(field, 320).superRefine((value, ctx) => {
    if (hasPlaceholder(value)) return;
    if (!(parseMailbox(value) ?? (bare ? parseBareSender(value) : null)))
      ctx.addIssue({ code: 'custom', message: `"${value}" is not a valid email address (nor a placeholder such as {{event.email}})` });
  });

const addresses = (field: string, max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? [value] : value),
    z
      .array(address(field), { error: `${field} must be an address or an array of addresses` })
      .min(1, `${field} needs at least one address`)
      .max(max, `${field} has at most ${max} addresses`),
  );

// ---------------------------------------------------------------------------------------------------
// Names and durations

export const eventName = (field: string) =>
  z
    .string({ error: `${field} is required (an event name)` })
    .regex(EVENT_NAME, `${field} is 1-${LIMITS.eventNameChars} characters: letters, digits, _ . : and -`);

const duration = (field: string, minMs: number, maxMs: number) =>
  z.string({ error: `${field} is required: ${DURATION_FORMS}` }).superRefine((value, ctx) => {
    const result = durationWithin(value, minMs, maxMs);
    if (!result.ok) ctx.addIssue({ code: 'custom', message: result.message });
  });

const stepKey = z
  .string({ error: 'key is required (a string)' })
  .regex(STEP_KEY, `key is 1-${LIMITS.stepKeyChars} characters: lower-case letters, digits, _ and -`)
  .refine(
    (key) => !(RESERVED_STEP_KEYS as readonly string[]).includes(key),
    `key cannot be ${RESERVED_STEP_KEYS.join(' or ')} (on_timeout gives those words a meaning)`,
  )
  .describe(`unique in the automation: 1-${LIMITS.stepKeyChars} of a-z 0-9 _ - (not ${RESERVED_STEP_KEYS.join(' or ')})`);

const nextKey = z
  .string({ error: 'next must be a step key' })
  .regex(STEP_KEY, 'next must be a step key')
  .describe('the key of the step that follows (default: the next in the list; after the last, the run ends); never into a cycle');

// ---------------------------------------------------------------------------------------------------
// Steps

const TAG_PART = /^[A-Za-z0-9_-]{1,256}$/;
const tag = z.strictObject({
  name: z
    .string({ error: 'tag names are strings' })
    .regex(TAG_PART, 'tag names are 1-256 letters, digits, _ or -')
    .describe('the tag name: 1-256 of A-Za-z0-9_-'),
  value: z
    .string({ error: 'tag values are strings' })
    .regex(TAG_PART, 'tag values are 1-256 letters, digits, _ or -')
    .describe('the tag value: 1-256 of A-Za-z0-9_-'),
});
const tags = z
  .union(
    [
      z.array(tag),
      z.record(z.string(), z.string()).transform((record) => Object.entries(record).map(([name, value]) => ({ name, value }))),
    ],
    {
      error: 'tags must be an array of {name, value} or an object of name to value',
    },
  )
  .pipe(z.array(tag).max(MAX_TAGS, `at most ${MAX_TAGS} tags`));

const templateVariables = z
  .record(
    z.string(),
    z.union([z.string(), z.number(), z.boolean(), z.null()], { error: 'variable values are strings, numbers, booleans or null' }),
    {
      error: 'template.variables must be an object of name to value',
    },
  )
  .superRefine((record, ctx) => {
    const names = Object.keys(record);
    if (names.length > 50) ctx.addIssue({ code: 'custom', message: 'at most 50 variables' });
    for (const name of names) {
      if (!VARIABLE_NAME.test(name) || name.length > 64)
        ctx.addIssue({ code: 'custom', path: [name], message: 'variable names are 1-64 letters, digits and _, not starting with a digit' });
      const value = record[name];
      if (typeof value === 'string')
        for (const message of placeholderProblems(value)) ctx.addIssue({ code: 'custom', path: [name], message });
      if (typeof value === 'number' && !isStorableNumber(value))
        ctx.addIssue({ code: 'custom', path: [name], message: `variable values: ${STORABLE_NUMBER_RULE}` });
    }
  });

const sendEmailStep = z
  .strictObject({
    key: stepKey,
    type: z.literal('send_email').describe('always `send_email`'),
    next: nextKey.optional(),
    to: addresses('to', MAX_RECIPIENTS)
      .optional()
      .describe(`an address or up to ${MAX_RECIPIENTS} (placeholders allowed); default ["{{event.email}}"]`),
    from: address('from', true)
      .optional()
      .describe(
        "required without a template (else the template's): an address, `Name <address>` or a bare local part; placeholders allowed",
      ),
    reply_to: addresses('reply_to', 10).optional().describe('an address or up to 10 (placeholders allowed)'),
    subject: templated('subject', 998)
      .refine((value) => !/[\r\n]/.test(value), 'subject must be a single line (no CR or LF)')
      .optional()
      .describe('required without a template: one line, at most 998 characters (placeholders allowed)'),
    html: templated('html', 10 * LIMITS.htmlBytes, { allowUnsubscribe: true, maxBytes: LIMITS.htmlBytes })
      .optional()
      .describe(
        `the HTML body, at most ${LIMITS.htmlBytes / 1024} KB; html or text without a template, neither with one (placeholders and {{unsubscribe_url}} allowed)`,
      ),
    text: templated('text', 10 * LIMITS.textBytes, { allowUnsubscribe: true, maxBytes: LIMITS.textBytes })
      .optional()
      .describe(
        `the text body, at most ${LIMITS.textBytes / 1024} KB; html or text without a template, neither with one (placeholders and {{unsubscribe_url}} allowed)`,
      ),
    template: z
      .strictObject(
        {
          id: z
            .string({ error: 'template.id (a template alias) is required' })
            .regex(TEMPLATE_ALIAS, 'template.id must be a template alias (lower-case letters, digits, _ or -, at most 64)')
            .describe('the template alias (its existence is checked at run time)'),
          variables: templateVariables
            .optional()
            .describe('at most 50 values of its placeholders: strings (placeholders allowed), numbers, booleans or null'),
        },
        { error: 'template must be an object {id, variables?}' },
      )
      .optional()
      .describe('send a template: its published version at run time is the content'),
    category: z
      .enum(CATEGORIES, { error: `category must be one of ${CATEGORIES.join(', ')}` })
      .optional()
      .describe('transactional, product or newsletter'),
    unsubscribe: z
      .boolean({ error: 'unsubscribe must be true or false' })
      .optional()
      .describe('managed unsubscribe on or off, as on a send'),
    tags: tags.optional().describe(`up to ${MAX_TAGS}, as on a send: an array of {name, value} or an object of name to value`),
    tenant: templated('tenant', 128).optional().describe('the tenant to send for: external_id or id (placeholders allowed)'),
  })
  .superRefine((step, ctx) => {
    if (step.template) {
      for (const field of ['html', 'text'] as const) {
        if (step[field] !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `${field} cannot be combined with template: the template's published version is the content`,
          });
      }
      return;
    }
    if (step.from === undefined) ctx.addIssue({ code: 'custom', path: ['from'], message: 'from is required without a template' });
    if (step.subject === undefined) ctx.addIssue({ code: 'custom', path: ['subject'], message: 'subject is required without a template' });
    if (step.html === undefined && step.text === undefined)
      ctx.addIssue({ code: 'custom', path: ['html'], message: 'one of html or text is required without a template' });
  })
  .transform((step) => ({ ...step, to: step.to ?? ['{{event.email}}'] }));

const delayStep = z.strictObject({
  key: stepKey,
  type: z.literal('delay').describe('always `delay`'),
  next: nextKey.optional(),
  duration: duration('duration', LIMITS.delayMinMs, LIMITS.delayMaxMs).describe(
    'how long to wait, 1 minute to 365 days: a whole number and a unit ("30 minutes", "2 days", "1 week") or ISO 8601 without years and months ("P2D")',
  ),
});

const waitForEventStep = z
  .strictObject({
    key: stepKey,
    type: z.literal('wait_for_event').describe('always `wait_for_event`'),
    next: nextKey.optional(),
    event: eventName('event').describe('the event name to wait for, from the same user (user_id, else email)'),
    timeout: duration('timeout', LIMITS.waitMinMs, LIMITS.waitMaxMs).describe(
      'how long to wait, 1 minute to 30 days, written as for a delay',
    ),
    on_timeout: z
      .string({ error: 'on_timeout must be end, continue or a step key' })
      .regex(STEP_KEY, 'on_timeout must be end, continue or a step key')
      .optional()
      .describe('end (default: the run completes), continue (go on as if the event came) or a step key to jump to'),
  })
  .transform((step) => ({ ...step, on_timeout: step.on_timeout ?? 'end' }));

/** Problems of one condition (a rule or an all/any group) at `path`, `depth` being its group level. */
function conditionProblems(value: unknown, path: (string | number)[], depth: number, ctx: z.RefinementCtx): void {
  const at = (field: string | null, message: string) =>
    ctx.addIssue({ code: 'custom', path: field === null ? path : [...path, field], message });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    at(null, 'each condition is {field, operator, value?}, {all: [...]} or {any: [...]}');
    return;
  }
  const record = value as Record<string, unknown>;
  const group = 'all' in record ? 'all' : 'any' in record ? 'any' : null;
  const own = new Set(Object.keys(record).filter((key) => !(path.length === 0 && ['key', 'type', 'next'].includes(key))));
  if (group !== null) {
    own.delete(group);
    for (const extra of own) at(extra, `a condition with ${group} takes nothing else (${extra})`);
    const list = record[group];
    if (depth > LIMITS.conditionDepth) {
      at(group, `all/any groups nest at most ${LIMITS.conditionDepth} deep`);
      return;
    }
    if (!Array.isArray(list) || list.length === 0) {
      at(group, `${group} must be a non-empty array of conditions`);
      return;
    }
    if (list.length > LIMITS.conditionsPerGroup) at(group, `${group} has at most ${LIMITS.conditionsPerGroup} conditions`);
    list.slice(0, LIMITS.conditionsPerGroup).forEach((item, i) => {
      conditionProblems(item, [...path, group, i], depth + 1, ctx);
    });
    return;
  }
  for (const name of ['field', 'operator', 'value']) own.delete(name);
  for (const extra of own) at(extra, `unknown condition field "${extra}" (a rule is {field, operator, value?})`);
  if (typeof record.field !== 'string') at('field', 'field is required: event.name, event.email, event.user_id or event.data.<key>');
  else {
    const problem = eventPathProblem(record.field);
    if (problem) at('field', problem);
  }
  const operator = record.operator;
  if (typeof operator !== 'string' || !(CONDITION_OPERATORS as readonly string[]).includes(operator)) {
    at('operator', `operator must be one of ${CONDITION_OPERATORS.join(', ')}`);
    return;
  }
  const op = operator as (typeof CONDITION_OPERATORS)[number];
  const v = record.value;
  if (UNARY_OPERATORS.includes(op)) {
    if (v !== undefined) at('value', `${op} takes no value`);
  } else if (v === undefined || v === null) {
    at('value', `value is required with ${op}`);
  } else if (NUMERIC_OPERATORS.includes(op)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) at('value', `${op} compares numbers: value must be a number`);
    else if (!isStorableNumber(v)) at('value', `value: ${STORABLE_NUMBER_RULE}`);
  } else if (TEXT_OPERATORS.includes(op)) {
    if (typeof v !== 'string') at('value', `${op} compares text: value must be a string`);
  } else if (!['string', 'number', 'boolean'].includes(typeof v) || (typeof v === 'number' && !Number.isFinite(v))) {
    at('value', 'value must be a string, a number or a boolean');
  } else if (typeof v === 'number' && !isStorableNumber(v)) {
    at('value', `value: ${STORABLE_NUMBER_RULE}`);
  } else if (typeof v === 'string' && v.length > 1000) at('value', 'value is at most 1000 characters');
}

const conditionStep = z
  .looseObject({ key: stepKey, type: z.literal('condition'), next: nextKey.optional() })
  .superRefine((step, ctx) => conditionProblems(step, [], 1, ctx))
  .transform((step) => step as unknown as Extract<Step, { type: 'condition' }>);

export const STEP_SCHEMAS = {
  send_email: sendEmailStep,
  delay: delayStep,
  wait_for_event: waitForEventStep,
  condition: conditionStep,
} as const;

/** One step: its type picks the schema; an unknown type is named at `type` with the known ones. */
export const stepSchema = z.unknown().transform((value, ctx): Step => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: 'each step is an object {key, type, ...}' });
    return z.NEVER;
  }
  const type = (value as Record<string, unknown>).type;
  // Own keys only: `constructor` is `in` every object. The type is quoted only when it is a string (an
  // array nested 500,000 levels would overflow JSON.stringify).
  if (typeof type !== 'string' || !Object.hasOwn(STEP_SCHEMAS, type)) {
    const named =
      type === undefined
        ? 'type is required'
        : typeof type === 'string'
          ? `unknown step type ${JSON.stringify(type.slice(0, 100))}`
          : `type must be a string, not ${Array.isArray(type) ? 'an array' : type === null ? 'null' : typeof type}`;
    ctx.addIssue({ code: 'custom', path: ['type'], message: `${named}: one of ${STEP_TYPES.join(', ')}` });
    return z.NEVER;
  }
  const parsed = STEP_SCHEMAS[type as keyof typeof STEP_SCHEMAS].safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: 'custom', path: issue.path as (string | number)[], message: issue.message });
    return z.NEVER;
  }
  return parsed.data as Step;
});

export const triggerSchema = z
  .strictObject(
    {
      event: eventName('event').describe('the event name that starts a run: 1-100 of letters, digits, _ . : -'),
      cancel_on_events: z
        .array(eventName('cancel_on_events'), { error: 'cancel_on_events must be an array of event names' })
        .max(LIMITS.cancelOnEvents, `cancel_on_events has at most ${LIMITS.cancelOnEvents} events`)
        .optional()
        .describe(`up to ${LIMITS.cancelOnEvents} event names that cancel the user's runs (not the trigger's own event)`),
    },
    { error: 'trigger is required: {event, cancel_on_events?}' },
  )
  .transform((trigger): Trigger => ({ event: trigger.event, cancel_on_events: trigger.cancel_on_events ?? [] }));

export const stepsSchema = z
  .array(stepSchema, { error: 'steps must be an array of steps' })
  .min(1, 'steps needs at least one step')
  .max(LIMITS.steps, `at most ${LIMITS.steps} steps`);

// ---------------------------------------------------------------------------------------------------
// Rules between steps

/**
 * Where the run may go after step `index`: its `next` (or the following step; none after the last),
 * and for wait_for_event the `on_timeout` target (a key, or `continue`: the same as `next`). A false
 * condition ends the run (no edge).
 */
export function successorsOf(steps: readonly Step[], index: number): { field: 'next' | 'on_timeout' | null; target: number }[] {
  const byKey = new Map(steps.map((step, i) => [step.key, i]));
  const step = steps[index]!;
  const out: { field: 'next' | 'on_timeout' | null; target: number }[] = [];
  const following = step.next !== undefined ? byKey.get(step.next) : index + 1 < steps.length ? index + 1 : undefined;
  if (following !== undefined) out.push({ field: step.next !== undefined ? 'next' : null, target: following });
  if (step.type === 'wait_for_event' && step.on_timeout !== 'end' && step.on_timeout !== 'continue') {
    const target = byKey.get(step.on_timeout);
    if (target !== undefined) out.push({ field: 'on_timeout', target });
  }
  return out;
}

/** Keys unique; `next` and `on_timeout` name existing steps; no cycles; the trigger does not cancel itself. */
export function definitionProblems(trigger: Trigger, steps: readonly Step[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Map<string, number>();
  const cancels = new Set<string>();
  trigger.cancel_on_events.forEach((event, i) => {
    if (event === trigger.event)
      problems.push({
        field: `trigger.cancel_on_events.${i}`,
        message: `"${event}" is the trigger's own event: it would cancel every run it starts`,
      });
    else if (cancels.has(event)) problems.push({ field: `trigger.cancel_on_events.${i}`, message: `"${event}" is listed twice` });
    cancels.add(event);
  });
  steps.forEach((step, i) => {
    const first = seen.get(step.key);
    if (first !== undefined)
      problems.push({ field: `steps.${i}.key`, message: `key "${step.key}" is already used by steps.${first}: keys are unique` });
    else seen.set(step.key, i);
  });
  const known = (key: string) => seen.has(key);
  steps.forEach((step, i) => {
    if (step.next !== undefined && !known(step.next))
      problems.push({ field: `steps.${i}.next`, message: `no step has key "${step.next}"` });
    if (step.next !== undefined && step.next === step.key)
      problems.push({ field: `steps.${i}.next`, message: `step "${step.key}" jumps to itself: automations may not loop` });
    if (step.type === 'wait_for_event' && step.on_timeout !== 'end' && step.on_timeout !== 'continue') {
      if (!known(step.on_timeout))
        problems.push({
          field: `steps.${i}.on_timeout`,
          message: `no step has key "${step.on_timeout}" (on_timeout is end, continue or a step key)`,
        });
      else if (step.on_timeout === step.key)
        problems.push({ field: `steps.${i}.on_timeout`, message: `step "${step.key}" jumps to itself: automations may not loop` });
    }
  });
  if (problems.some((p) => p.field.endsWith('.key'))) return problems;
  problems.push(...cycleProblems(steps).filter((cycle) => !problems.some((p) => p.field === cycle.field)));
  const bytes = Buffer.byteLength(JSON.stringify({ trigger, steps }), 'utf8');
  if (bytes > LIMITS.definitionBytes)
    problems.push({
      field: 'steps',
      message: `the definition is ${bytes} bytes as JSON; at most ${LIMITS.definitionBytes} (${LIMITS.definitionBytes / 1024} KB)`,
    });
  return problems;
}

/**
 * Every cycle goes back at least once (array order only goes forward), so each backward jump
 * (`next` or `on_timeout` to this step or an earlier one) is checked: if its target leads back to the
 * jumping step, the cycle closes there, and that field is named.
 */
export function cycleProblems(steps: readonly Step[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  steps.forEach((_step, i) => {
    for (const edge of successorsOf(steps, i)) {
      if (edge.field === null || edge.target > i) continue;
      const path = pathBetween(steps, edge.target, i);
      if (!path) continue;
      const loop = [...path, edge.target].map((index) => steps[index]!.key).join(' -> ');
      problems.push({
        field: `steps.${i}.${edge.field}`,
        message: `jumping to "${steps[edge.target]!.key}" closes a cycle (${loop}); automations may not loop: add the steps again instead`,
      });
    }
  });
  return problems;
}

/** Step indexes from `from` to `to` following successors (breadth first), or null when unreachable. */
function pathBetween(steps: readonly Step[], from: number, to: number): number[] | null {
  const previous = new Map<number, number>([[from, -1]]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift()!;
    if (at === to) {
      const path: number[] = [];
      for (let cursor = at; cursor !== -1; cursor = previous.get(cursor)!) path.unshift(cursor);
      return path;
    }
    for (const { target } of successorsOf(steps, at)) {
      if (!previous.has(target)) {
        previous.set(target, at);
        queue.push(target);
      }
    }
  }
  return null;
}

/** Whole definition: the shapes, then (when they are right) the rules between steps. */
export function validateDefinition(input: {
  trigger: unknown;
  steps: unknown;
}): { ok: true; trigger: Trigger; steps: Step[] } | { ok: false; problems: FieldProblem[] } {
  const parsed = z.object({ trigger: triggerSchema, steps: stepsSchema }).safeParse(input);
  if (!parsed.success) return { ok: false, problems: issuesToFields(parsed.error.issues) };
  const problems = definitionProblems(parsed.data.trigger, parsed.data.steps);
  return problems.length ? { ok: false, problems } : { ok: true, trigger: parsed.data.trigger, steps: parsed.data.steps };
}

export type { Condition };
