/**
 * Evaluates a `condition` step against the event that started the run (docs/automations.md,
 * "condition"). Pure, never throws: odd data or a malformed stored condition is false, with a trace line
 * saying why. The trace (one line per rule and group, nested groups indented) is for dry runs.
 *
 * Semantics (the docs' rules, made exact):
 * - **Missing**: `event.data.<path>` is missing when a key along the path is absent (own keys of plain
 *   objects only; arrays are not walked); `event.email` / `event.user_id` are missing when null. A
 *   missing value makes every operator false (`exists`, `neq` and `is_empty` included). A present
 *   `null` data value exists.
 * - **Comparisons are by JSON type**, never coerced: `eq`/`neq` compare strings, numbers and booleans
 *   with `===` (`"5"` eq `5` is false; `neq` is true for any present value that is not `eq`, objects,
 *   arrays and null included). `gt`/`gte`/`lt`/`lte` are true only when both sides are numbers (a
 *   numeric string such as `"5"` is not a number: false). Text operators are case-sensitive.
 * - `contains`: a string holds the value as a substring; an array holds an element `===` the value.
 *   `starts_with`/`ends_with`: strings only. `is_empty`: `""`, `null`, `[]`, `{}`.
 * - Groups: `all` every member true, `any` at least one; every member is evaluated (for the trace).
 *   An empty group, refused by validation, is malformed here: false.
 */
import { CONDITION_OPERATORS, type Condition, type ConditionOperator } from './automation';
import { eventPathProblem } from './validate-definition';

/** The event a run started with (what conditions and placeholders read). */
export interface AutomationEvent {
  name: string;
  email: string | null;
  user_id: string | null;
  data: Record<string, unknown>;
}

export interface ConditionResult {
  result: boolean;
  trace: string[];
}

const hasOwn = (object: object, key: string) => Object.hasOwn(object, key);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The value `path` (`event.name`, `event.email`, `event.user_id`, `event.data.a.b`) names, or
 * `{found: false}` when the event has none (or the path is not a valid event path).
 */
export function lookupEventValue(event: AutomationEvent, path: string): { found: true; value: unknown } | { found: false } {
  if (eventPathProblem(path) !== null) return { found: false };
  const rest = path.slice('event.'.length);
  if (rest === 'name') return typeof event?.name === 'string' ? { found: true, value: event.name } : { found: false };
  if (rest === 'email' || rest === 'user_id') {
    const value = event?.[rest];
    return value === null || value === undefined ? { found: false } : { found: true, value };
  }
  let cursor: unknown = event?.data;
  for (const key of rest.slice('data.'.length).split('.')) {
    if (!isRecord(cursor) || !hasOwn(cursor, key)) return { found: false };
    cursor = cursor[key];
  }
  return cursor === undefined ? { found: false } : { found: true, value: cursor };
}

/** A short one-line rendering of a value for the trace. */
function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
const bothNumbers = (a: unknown, b: unknown): [number, number] | null =>
  typeof a === 'number' && typeof b === 'number' && Number.isFinite(a) && Number.isFinite(b) ? [a, b] : null;
const bothStrings = (a: unknown, b: unknown): [string, string] | null => (typeof a === 'string' && typeof b === 'string' ? [a, b] : null);

/** One operator on a present value (`actual`) and the rule's `expected`. */
function apply(operator: ConditionOperator, actual: unknown, expected: unknown): boolean {
  switch (operator) {
    case 'exists':
      return true;
    case 'is_empty':
      return isEmpty(actual);
    case 'eq':
      return isScalar(expected) && actual === expected;
    case 'neq':
      return isScalar(expected) && actual !== expected;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const pair = bothNumbers(actual, expected);
      if (!pair) return false;
      const [a, b] = pair;
      return operator === 'gt' ? a > b : operator === 'gte' ? a >= b : operator === 'lt' ? a < b : a <= b;
    }
    case 'contains':
      if (typeof expected !== 'string') return false;
      if (typeof actual === 'string') return actual.includes(expected);
      return Array.isArray(actual) && actual.some((element) => element === expected);
    case 'starts_with': {
      const pair = bothStrings(actual, expected);
      if (!pair) return false;
      return pair[0].startsWith(pair[1]);
    }
    case 'ends_with': {
      const pair = bothStrings(actual, expected);
      if (!pair) return false;
      return pair[0].endsWith(pair[1]);
    }
  }
}

/** Deeper than validation allows (3) is malformed; the guard only keeps odd stored data finite. */
const MAX_DEPTH = 10;

function evaluate(condition: unknown, event: AutomationEvent, depth: number, trace: string[]): boolean {
  const indent = '  '.repeat(depth);
  const invalid = (why: string) => {
    trace.push(`${indent}invalid condition (${why}) -> false`);
    return false;
  };
  if (!isRecord(condition)) return invalid('not an object');
  const group = 'all' in condition ? 'all' : 'any' in condition ? 'any' : null;
  if (group !== null) {
    const members = condition[group];
    if (!Array.isArray(members) || members.length === 0) return invalid(`${group} must be a non-empty array`);
    if (depth >= MAX_DEPTH) return invalid('groups nested too deep');
    const at = trace.push('') - 1;
    const results = members.map((member) => evaluate(member, event, depth + 1, trace));
    const result = group === 'all' ? results.every(Boolean) : results.some(Boolean);
    trace[at] = `${indent}${group} (${results.filter(Boolean).length} of ${results.length} true) -> ${result}`;
    return result;
  }
  const { field, operator, value } = condition;
  if (typeof field !== 'string' || eventPathProblem(field) !== null) return invalid(`field ${show(field)} is not an event value`);
  if (typeof operator !== 'string' || !(CONDITION_OPERATORS as readonly string[]).includes(operator))
    return invalid(`unknown operator ${show(operator)}`);
  const op = operator as ConditionOperator;
  const rule = `${field} ${op}${value === undefined ? '' : ` ${show(value)}`}`;
  const found = lookupEventValue(event, field);
  const result = found.found && apply(op, found.value, value);
  trace.push(`${indent}${rule}: ${found.found ? show(found.value) : 'missing'} -> ${result}`);
  return result;
}

/** True when the run goes on. `trace`: what each rule saw, e.g. `event.data.plan eq "pro": "free" -> false`. */
export function evaluateCondition(condition: Condition, event: AutomationEvent): ConditionResult {
  const trace: string[] = [];
  const result = evaluate(condition, event, 0, trace);
  return { result, trace };
}
