/** Request validation for /automations (the single source of the request types; docs/automations.md). */
import * as z from 'zod';
import { AUTOMATION_LIMITS as LIMITS, AUTOMATION_STATUSES } from './automation';
import { definitionProblems, stepsSchema, triggerSchema } from './validate-definition';

const name = z
  .string({ error: 'name is required (a string)' })
  .trim()
  .min(1, 'name is required')
  .max(LIMITS.nameChars, `name is at most ${LIMITS.nameChars} characters`)
  .describe(`a label for people: 1-${LIMITS.nameChars} characters (trimmed)`);
const trigger = triggerSchema.describe("what starts a run (event) and what cancels a user's runs (cancel_on_events)");
const steps = stepsSchema.describe(`1-${LIMITS.steps} steps, run in order (keys unique, no cycles)`);

/**
 * Adds the rules between steps (validate-definition.ts) once every field has the right shape: a transform, which
 * zod runs only when the object parsed (a refinement would also see unparsed values).
 */
function withDefinitionRules<
  T extends { trigger?: Parameters<typeof definitionProblems>[0]; steps?: Parameters<typeof definitionProblems>[1] },
>(value: T, ctx: z.RefinementCtx): T {
  if (!value.trigger || !value.steps) return value;
  for (const problem of definitionProblems(value.trigger, value.steps))
    ctx.addIssue({
      code: 'custom',
      path: problem.field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
      message: problem.message,
    });
  return value;
}

/**
 * POST /automations. New automations are drafts unless `status: active` is given (a draft is as valid
 * as an active one: every save validates fully). Unknown fields are refused, not dropped.
 */
export const createAutomationSchema = z
  .strictObject({
    name,
    status: z
      .enum(['draft', 'active'], { error: 'status at creation is draft (default) or active' })
      .optional()
      .describe('draft (default) or active (the same as creating, then activating)'),
    trigger,
    steps,
  })
  .transform(withDefinitionRules);
export type CreateAutomationInput = z.output<typeof createAutomationSchema>;

/**
 * PATCH /automations/{id}: any of name, trigger, steps (each replaced whole). The rules between steps
 * are checked by the use case on the merged definition (a new trigger against the stored steps).
 */
export const updateAutomationSchema = z
  .strictObject({
    name: name.optional(),
    trigger: trigger.optional().describe('replaces the trigger whole'),
    steps: steps.optional().describe('replaces the steps whole'),
    status: z
      .never({ error: 'status is changed with POST /automations/{id} {"action": "activate" | "pause"}' })
      .optional()
      .describe('refused: change the status with POST /automations/{id} {"action": "activate" | "pause"}'),
  })
  .refine((value) => value.name !== undefined || value.trigger !== undefined || value.steps !== undefined, {
    message: 'send at least one of name, trigger, steps',
  });
export type UpdateAutomationInput = z.output<typeof updateAutomationSchema>;

export const AUTOMATION_ACTIONS = ['activate', 'pause'] as const;
export type AutomationAction = (typeof AUTOMATION_ACTIONS)[number];

/** POST /automations/{id}. */
export const automationActionSchema = z.strictObject({
  action: z
    .enum(AUTOMATION_ACTIONS, { error: `action is required: ${AUTOMATION_ACTIONS.join(' or ')}` })
    .describe('activate (events start runs; idempotent) or pause (new runs stop, runs in flight are cancelled at their next step)'),
});

/** `?limit&cursor&status` of GET /automations (newest first). */
export const listAutomationsQuerySchema = z.object({
  limit: z.coerce.number().int('limit must be an integer').min(1, 'limit must be 1-100').max(100, 'limit must be 1-100').default(25),
  cursor: z.string().max(2048).optional(),
  status: z
    .enum(AUTOMATION_STATUSES, { error: `status must be one of ${AUTOMATION_STATUSES.join(', ')}` })
    .optional()
    .describe('only automations in this status: draft, active or paused'),
});
export type ListAutomationsQuery = z.output<typeof listAutomationsQuerySchema>;
