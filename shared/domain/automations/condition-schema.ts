/** The documentation schema of an automation condition: a component of its own in the OpenAPI document, on the request side (steps) and the response side. */
import * as z from 'zod';
import { CONDITION_OPERATORS, type Condition } from './automation';

export const OPERATOR_DOC =
  'eq, neq (a string, number or boolean), gt, gte, lt, lte (a number), contains, starts_with, ends_with (a string), exists, is_empty (no value)';
export const ALL_DOC = 'true when every condition is (1-20 rules or groups; groups nest at most 3 deep)';
export const ANY_DOC = 'true when at least one condition is (1-20 rules or groups; groups nest at most 3 deep)';

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
