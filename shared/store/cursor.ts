/**
 * Opaque pagination cursors: the DynamoDB LastEvaluatedKey, base64url JSON, bound to the partition it
 * came from so a cursor of one account can never read another's list.
 */
import { ValidationError } from '../domain/errors';

export function encodeCursor(key: Record<string, unknown> | undefined): string | null {
  return key ? Buffer.from(JSON.stringify(key), 'utf8').toString('base64url') : null;
}

export function decodeCursor(cursor: string | undefined, expected: Record<string, string>): Record<string, unknown> | undefined {
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
    Object.values(parsed).every((value) => typeof value === 'string') &&
    Object.entries(expected).every(([name, value]) => (parsed as Record<string, unknown>)[name] === value);
  if (!valid) {
    throw new ValidationError('The cursor is invalid. Pass next_cursor from the previous page unchanged.', {
      details: { fields: [{ field: 'cursor', message: 'invalid cursor' }] },
    });
  }
  return parsed as Record<string, unknown>;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}
