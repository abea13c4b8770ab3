/**
 * What a request may put into a DynamoDB key or item, checked where input enters (the request schemas),
 * so that input DynamoDB would refuse with an error (a 500 had it got that far) is a 400 validation_error
 * naming the field instead. DynamoDB's limits: a partition key of at most 2048 bytes, a sort key of at
 * most 1024, an item of at most 400 KB, attributes nested at most 32 levels deep (docs/api.md, "Request
 * limits"; docs/reliability.md, "Hostile input").
 *
 * - Ids of ours in a body or query (`email_id`, `automation_id`): `idField`, a prefix and a ULID body, so
 *   any other string is refused before a lookup. Ids in a path are bounded by the HTTP frame
 *   (shared/doors/http/create-api.ts: over 256 bytes or with control characters is a 404).
 * - Names that stand for an id (a tenant's external_id or id): `boundedRef`, 1-`max` characters.
 * - Free-form JSON objects (tenant metadata, event data, template variables): `freeFormObject`, at most
 *   `maxBytes` as JSON and `maxDepth` levels deep (FREE_FORM_MAX_DEPTH unless the field says less),
 *   with keys and numbers the table can store; other numbers a request stores: `isStorableNumber`.
 */
import * as z from 'zod';
import { isId, type IdPrefix } from './ids';

/** Most levels of nesting DynamoDB stores in an attribute. */
export const DYNAMODB_MAX_DEPTH = 32;

/**
 * Deepest free-form object a request may send: half of DynamoDB's 32 levels, so the item's own nesting
 * around it (a tenant keeps its metadata one level down, a run the event's data two) always fits.
 */
export const FREE_FORM_MAX_DEPTH = 16;

/** Longest tenant reference (external_id or id) a body or query may name. */
export const TENANT_REF_MAX_CHARS = 128;

const isContainer = (node: unknown): node is object => node !== null && typeof node === 'object';

/**
 * Visits every value inside a JSON value, depth first, with its depth (the value itself 0) and the key of
 * the value's top-level field it is in (null for the value itself); `visit` returns true to stop. Objects
 * and arrays at depth `maxDepth` are visited but not entered, so the recursion is at most `maxDepth`
 * calls deep however deep the value is (a 1 MB body can be nested 500,000 levels, past the call stack).
 */
function walkJson(
  value: unknown,
  maxDepth: number,
  visit: (node: unknown, depth: number, field: string | null) => boolean,
  depth = 0,
  field: string | null = null,
): boolean {
  if (visit(value, depth, field)) return true;
  if (!isContainer(value) || depth >= maxDepth) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (walkJson(value[i], maxDepth, visit, depth + 1, field ?? String(i))) return true;
  } else {
    for (const key of Object.keys(value))
      if (walkJson((value as Record<string, unknown>)[key], maxDepth, visit, depth + 1, field ?? key)) return true;
  }
  return false;
}

/**
 * Deepest request body any operation takes: free-form objects (16 levels) inside a body, an automation's
 * condition groups. Deeper bodies are refused whole before any schema or code walks them.
 */
export const MAX_BODY_DEPTH = 64;

/**
 * The top-level field of `value` (`(body)` for the value itself) holding objects or arrays nested more
 * than `limit` levels (the value itself is 1); null when none does.
 */
export function fieldNestedDeeperThan(value: unknown, limit: number): string | null {
  let found: string | null = null;
  walkJson(value, limit, (node, depth, field) => {
    if (isContainer(node) && depth + 1 > limit) found = field ?? '(body)';
    return found !== null;
  });
  return found;
}

/** DynamoDB's smallest magnitude other than 0 (its numbers span 1E-130 to 9.99E+125). */
const SMALLEST_STORABLE = 1e-130;

/**
 * A number the table can store as the document client writes it: finite, at most 2^53 - 1 in size (the
 * client refuses larger ones rather than lose digits) and 0 or at least 1E-130 in size (DynamoDB's
 * smallest).
 */
export function isStorableNumber(value: number): boolean {
  const size = Math.abs(value);
  return Number.isFinite(value) && size <= Number.MAX_SAFE_INTEGER && (size === 0 || size >= SMALLEST_STORABLE);
}

/** isStorableNumber in words, for messages. */
export const STORABLE_NUMBER_RULE = 'numbers are 0 or from 1e-130 to 9007199254740991 in size';

/**
 * Keys a stored object cannot hold: DynamoDB refuses an empty one; the document client takes an object
 * with its own `constructor` for a class instance (and refuses it), and drops `__proto__`.
 */
export const UNSTORABLE_KEYS: ReadonlySet<string> = new Set(['', 'constructor', '__proto__']);

/**
 * Why `value` cannot be taken as a free-form object `maxDepth` levels deep at most (nor, when `stored`,
 * be written to the table); null when it can.
 */
export function freeFormProblem(value: unknown, maxDepth: number, stored = true): string | null {
  let problem: string | null = null;
  walkJson(value, maxDepth, (node, depth) => {
    if (isContainer(node) && depth + 1 > maxDepth) problem = `is nested more than ${maxDepth} levels deep`;
    else if (!stored) return false;
    else if (typeof node === 'number' && !isStorableNumber(node)) problem = `holds the number ${node}: ${STORABLE_NUMBER_RULE}`;
    else if (isContainer(node) && !Array.isArray(node)) {
      const key = Object.keys(node).find((name) => UNSTORABLE_KEYS.has(name));
      if (key !== undefined) problem = `has the key ${JSON.stringify(key)}: keys must not be empty, "constructor" or "__proto__"`;
    }
    return problem !== null;
  });
  return problem;
}

export interface FreeFormBounds {
  /** Largest size of the object as JSON (UTF-8 bytes). */
  maxBytes: number;
  /** Most levels of nesting (the object itself is 1); FREE_FORM_MAX_DEPTH when absent. */
  maxDepth?: number;
  /** False for an object only read, never written to the table (template variables): keys and numbers are free. */
  stored?: boolean;
}

/** A human size: 4096 -> "4 KB", 1048576 -> "1 MB". */
function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/** `at most 4 KB as JSON and 16 levels deep`: the bounds in words, for descriptions and docs. */
export function describeFreeForm(bounds: FreeFormBounds): string {
  return `at most ${formatBytes(bounds.maxBytes)} as JSON and ${bounds.maxDepth ?? FREE_FORM_MAX_DEPTH} levels deep`;
}

/**
 * A free-form JSON object of the caller's (`field` names it in messages): refused, naming the field, when
 * nested deeper than `maxDepth`, holding what the table cannot store (freeFormProblem) or larger than
 * `maxBytes` as JSON. The walk comes first, so the size is only measured (JSON.stringify recurses) on a
 * value known to be shallow.
 */
export function freeFormObject(field: string, bounds: FreeFormBounds) {
  const maxDepth = bounds.maxDepth ?? FREE_FORM_MAX_DEPTH;
  return z.record(z.string(), z.unknown(), { error: `${field} must be a JSON object` }).superRefine((value, ctx) => {
    const problem = freeFormProblem(value, maxDepth, bounds.stored ?? true);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', message: `${field} ${problem}` });
      return;
    }
    const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
    if (bytes > bounds.maxBytes)
      ctx.addIssue({
        code: 'custom',
        message: `${field} is ${bytes} bytes as JSON; at most ${bounds.maxBytes} (${formatBytes(bounds.maxBytes)})`,
      });
  });
}

/** An id of ours named in a body or query: `<prefix>_` and 26 characters, else a 400 naming `field`. */
export function idField(prefix: IdPrefix, field: string, what: string) {
  const message = `${field} must be ${what} id (${prefix}_ and 26 characters)`;
  return z.string({ error: message }).refine((id) => isId(prefix, id), message);
}

/**
 * A reference by name or id (a tenant's external_id or id): 1-`maxChars` characters after trimming, none
 * of them a control character (no name or id has one; DynamoDB Local reads a key of one NUL as empty), so
 * it fits any key it is looked up by; whether it names something is the lookup's answer (404).
 */
export function boundedRef(field: string, maxChars: number, what: string) {
  return z
    .string({ error: `${field} must be a string (${what})` })
    .trim()
    .min(1, `${field} must not be empty (${what})`)
    .max(maxChars, `${field} is at most ${maxChars} characters (${what})`)
    .regex(/^[^\u0000-\u001f\u007f]*$/, `${field} must not contain control characters (${what})`);
}
