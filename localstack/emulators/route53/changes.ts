/**
 * Changes, as GetChange reports them: each is PENDING until the emulator's `syncDelayMs` has passed since
 * it was submitted, then INSYNC (Route 53 answers PENDING until every name server has the change).
 */
import { randomBytes } from 'node:crypto';
import { Route53Fault } from './errors';
import type { Route53State } from './state';
import type { Change } from './types';

export type ChangeStatus = 'PENDING' | 'INSYNC';

const newChangeId = () => `C${randomBytes(10).toString('hex').toUpperCase().slice(0, 19)}`;

/** A change submitted now. */
export function recordChange(state: Route53State, comment: string | null): Change {
  const change = { id: newChangeId(), submitted_at: new Date().toISOString(), comment, syncAtMs: Date.now() + state.syncDelayMs };
  state.changes.set(change.id, change);
  return change;
}

export function changeStatus(change: Change): ChangeStatus {
  return Date.now() >= change.syncAtMs ? 'INSYNC' : 'PENDING';
}

/** The change of `id` (with or without the `/change/` prefix); 404 NoSuchChange when there is none. */
export function changeById(state: Route53State, id: string): Change {
  const change = state.changes.get(id.replace(/^\/?change\//, ''));
  if (!change) throw new Route53Fault(404, 'NoSuchChange', `A change with the specified change ID does not exist.`);
  return change;
}
