/**
 * The ids a create made, handed to the audit log (./middleware/audit.ts) so the create's record names
 * what it created (docs/audit-log.md): an operation that declares `creates` (../openapi/operation.ts) has
 * them read from its JSON answer by route() (./route.ts); a dashboard form that creates sets them itself
 * (recordCreated).
 */
import type { Context } from 'hono';
import type { CreatedId } from '../openapi/operation';
import type { ApiEnv } from './env';

/** Adds `param: id` to the request's created ids. */
export function recordCreated(c: Context<ApiEnv>, param: string, id: string): void {
  c.set('createdIds', { ...c.get('createdIds'), [param]: id });
}

/** The value at a dotted path of a JSON value, when it is a string. */
function stringAt(value: unknown, path: string): string | null {
  let node = value;
  for (const key of path.split('.')) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return typeof node === 'string' ? node : null;
}

/** Records the id a successful create's JSON answer holds at `creates.at` (the answer itself untouched). */
export async function recordCreatedFromAnswer(c: Context<ApiEnv>, creates: CreatedId, response: Response): Promise<void> {
  if (response.status < 200 || response.status >= 300) return;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => null);
  const id = stringAt(body, creates.at);
  if (id !== null) recordCreated(c, creates.param, id);
}
