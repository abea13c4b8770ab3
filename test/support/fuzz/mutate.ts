/**
 * Bodies with one field wrong: a valid body (the operation's example, adapted to the fuzzer's fixtures)
 * with the value at one path replaced by a hostile JSON text, or removed. Paths reach into objects and
 * the first item of arrays, a few levels down (`template.variables`, `steps.0.key`, `emails.0.to`).
 */
import type { Hostile } from './hostile';

export type FieldPath = (string | number)[];

const PLACEHOLDER = '\u0000fuzz-placeholder\u0000';
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

/**
 * Every path into `value` down to `maxDepth` (objects' keys; arrays' items, the first only when they
 * are all of one shape, as a batch's emails are), containers included.
 */
export function fieldPaths(value: unknown, maxDepth = 5, prefix: FieldPath = []): FieldPath[] {
  if (prefix.length >= maxDepth || value === null || typeof value !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? arrayItems(value) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...fieldPaths(child, maxDepth, [...prefix, key])]);
}

/** The items of an array worth a path each: all of them when their shapes differ (an automation's steps). */
function arrayItems(items: unknown[]): [number, unknown][] {
  const shapes = new Set(
    items.map((item) => (item !== null && typeof item === 'object' ? JSON.stringify(Object.keys(item).sort()) : typeof item)),
  );
  return (shapes.size > 1 ? items : items.slice(0, 1)).map((item, index) => [index, item]);
}

export const pathLabel = (path: FieldPath) => path.join('.');

function withValueAt(base: unknown, path: FieldPath, value: unknown, remove = false): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (at[key] === null || typeof at[key] !== 'object') at[key] = {};
    at = at[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1]!;
  if (remove) {
    if (Array.isArray(at)) at.splice(Number(last), 1);
    else delete at[last];
  } else at[last] = value;
  return copy;
}

/** `base` as JSON text with the value at `path` replaced by `hostile` (written as is). */
export function bodyWith(base: unknown, path: FieldPath, hostile: Hostile): string {
  return JSON.stringify(withValueAt(base, path, PLACEHOLDER)).replace(PLACEHOLDER_JSON, () => hostile.json);
}

/** `base` as JSON text without the value at `path`. */
export function bodyWithout(base: unknown, path: FieldPath): string {
  return JSON.stringify(withValueAt(base, path, undefined, true));
}
