/**
 * Opaque pagination cursors: the DynamoDB LastEvaluatedKey, base64url JSON, bound to the partition it
 * came from so a cursor of one account can never read another's list.
 */
import { ValidationError } from '../../domain/errors';

export function encodeCursor(key: Record<string, unknown> | undefined): string | null {
  return key ? Buffer.from(JSON.stringify(key), 'utf8').toString('base64url') : null;
}

/** Longest key value (UTF-8 bytes) a cursor may carry: DynamoDB's sort keys are at most 1 KB (partition keys 2 KB); ours are far shorter. */
const MAX_KEY_VALUE_BYTES = 1024;

/** What a whole start key must look like: exactly these attribute names, and a sort key prefix when the query has one. */
export interface CursorShape {
  keyNames: readonly string[];
  sortKeyPrefix?: string;
}

/**
 * The start key in a cursor, checked whole before it reaches DynamoDB (which answers a malformed or
 * out-of-range start key with an error): the caller's partition, exactly the listing's key attributes,
 * short strings, the query's sort key prefix. Anything else is 400 at `cursor`.
 */
export function decodeCursor(
  cursor: string | undefined,
  expected: Record<string, string>,
  shape?: CursorShape,
): Record<string, unknown> | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const valid =
    typeof parsed === 'object' &&
    parsed !== null &&
    !Array.isArray(parsed) &&
    Object.values(parsed).every(
      (value) => typeof value === 'string' && value.length > 0 && Buffer.byteLength(value, 'utf8') <= MAX_KEY_VALUE_BYTES,
    ) &&
    Object.entries(expected).every(([name, value]) => (parsed as Record<string, unknown>)[name] === value) &&
    (!shape || hasShape(parsed as Record<string, string>, shape));
  if (!valid) {
    throw new ValidationError('The cursor is invalid. Pass next_cursor from the previous page unchanged.', {
      details: { fields: [{ field: 'cursor', message: 'invalid cursor' }] },
    });
  }
  return parsed as Record<string, unknown>;
}

function hasShape(key: Record<string, string>, shape: CursorShape): boolean {
  const names = Object.keys(key).sort();
  const wanted = [...shape.keyNames].sort();
  if (names.length !== wanted.length || names.some((name, i) => name !== wanted[i])) return false;
  return shape.sortKeyPrefix === undefined || key.SK!.startsWith(shape.sortKeyPrefix);
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}
