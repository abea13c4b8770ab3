/**
 * Items become models here: each repository decodes what it reads with the zod schema of its model
 * (next to the model in shared/domain/**, or next to a store-only type), once per item. Unknown
 * attributes (keys, `type`, bookkeeping) are dropped by the schema; an item that does not decode is a
 * StoredItemError, never a model with a missing or misnamed field.
 *
 * The error names the model, the item's key and what failed (each path and zod's issue code), never a
 * value: items hold personal data and sealed secrets. A path step that is a key of the item's own data
 * (a header name, a metadata key) is shown as `*`.
 */
import type * as z from 'zod';

/** An item that does not decode into its model. */
export class StoredItemError extends Error {
  override readonly name = 'StoredItemError';

  constructor(
    /** The model the item should hold (`Email`, `Tenant`, ...). */
    readonly model: string,
    /** The item's key, as `PK / SK`. */
    readonly key: string,
    /** What failed, each as `path (issue code)`. */
    readonly problems: readonly string[],
  ) {
    super(`A stored ${model} item (${key}) does not decode: ${problems.join('; ')}`);
  }
}

/** Most problems named in one message (an item far from its schema would otherwise make a huge one). */
const MAX_PROBLEMS = 10;

/** The item decoded by `schema` (parsed once); throws StoredItemError naming `what` when it does not decode. */
export function decodeItem<S extends z.ZodType>(schema: S, item: Record<string, unknown>, what: string): z.output<S> {
  const parsed = schema.safeParse(item);
  if (parsed.success) return parsed.data;
  throw new StoredItemError(what, keyOf(item), problemsOf(schema, parsed.error.issues));
}

function keyOf(item: Record<string, unknown>): string {
  const part = (value: unknown) => (typeof value === 'string' ? value : '?');
  return `${part(item.PK)} / ${part(item.SK)}`;
}

function problemsOf(schema: z.ZodType, issues: readonly z.core.$ZodIssue[]): string[] {
  const problems = issues.slice(0, MAX_PROBLEMS).map((issue) => {
    // `expected` is a type name of the schema's (string, array, ...), never a value of the item.
    const expected = issue.code === 'invalid_type' ? `, expected ${issue.expected}` : '';
    return `${pathOf(schema, issue.path)} (${issue.code}${expected})`;
  });
  if (issues.length > MAX_PROBLEMS) problems.push(`and ${issues.length - MAX_PROBLEMS} more`);
  return problems;
}

/** What this walk reads of a zod schema's definition (zod 4's `_zod.def`). */
interface SchemaDef {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  element?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  innerType?: z.core.$ZodType;
  options?: readonly z.core.$ZodType[];
  getter?: () => z.core.$ZodType;
  in?: z.core.$ZodType;
}

const defOf = (schema: z.core.$ZodType): SchemaDef => schema._zod.def as SchemaDef;

/** The schema under wrappers (optional, nullable, default, lazy, pipe): where a path goes on. */
function unwrapped(schema: z.core.$ZodType | undefined): z.core.$ZodType | undefined {
  for (let at = schema, depth = 0; at && depth < 20; depth++) {
    const def = defOf(at);
    if (def.innerType) at = def.innerType;
    else if (def.type === 'lazy' && def.getter) at = def.getter();
    else if (def.type === 'pipe' && def.in) at = def.in;
    else return at;
  }
  return undefined;
}

/** The next schema along `step` from `schema` (a union: the first option that has it), or undefined. */
function child(schema: z.core.$ZodType | undefined, step: PropertyKey): { schema: z.core.$ZodType | undefined; named: boolean } {
  const at = unwrapped(schema);
  if (!at) return { schema: undefined, named: false };
  const def = defOf(at);
  if (def.type === 'object' && typeof step === 'string' && def.shape && Object.hasOwn(def.shape, step))
    return { schema: def.shape[step], named: true };
  if (def.type === 'array' && typeof step === 'number') return { schema: def.element, named: true };
  if (def.type === 'record') return { schema: def.valueType, named: false };
  if (def.type === 'union' && def.options) {
    for (const option of def.options) {
      const found = child(option, step);
      if (found.named) return found;
    }
  }
  return { schema: undefined, named: false };
}

/** The issue's path as `a.0.b`, each step the schema does not name (a record's key, data) shown as `*`. */
function pathOf(schema: z.ZodType, path: readonly PropertyKey[]): string {
  let at: z.core.$ZodType | undefined = schema;
  const shown = path.map((step) => {
    const next = child(at, step);
    at = next.schema;
    return next.named || typeof step === 'number' ? String(step) : '*';
  });
  return shown.join('.') || '(item)';
}
