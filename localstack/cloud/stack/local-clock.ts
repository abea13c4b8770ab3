/**
 * The local cloud's adjustable clock: one offset (ms) in shared memory, read by the functions of every
 * thread through shared/adapters/clock.ts. `PUT /_local/clock {"offset_ms": n}` or `{"now": "<ISO>"}` moves it,
 * `GET /_local/clock` shows it, `DELETE /_local/clock` resets it. The functions' clock and the sweeps that
 * stand in for AWS's deletions (DynamoDB's TTL, ../dynamodb/dynamodb-ttl-sweep.ts; S3's lifecycle, ../s3/s3-lifecycle-sweep.ts)
 * move; the emulators and ids keep real time.
 */
import { shareClockOffset } from '#shared/adapters/clock';

export const clockOffsetCell = new SharedArrayBuffer(8);
const offset = new Float64Array(clockOffsetCell);
shareClockOffset(clockOffsetCell);

/** Called with the new offset (ms) after every change: processes that cannot share the cell (the relay task, ../relay-task/relay-task-process.ts). */
const listeners = new Set<(offsetMs: number) => void>();

export function onClockChange(listener: (offsetMs: number) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

function changed(): ClockState {
  for (const listener of listeners) listener(offset[0]!);
  return clockState();
}

/** The offset (ms) now. */
export function clockOffsetMs(): number {
  return offset[0]!;
}

export interface ClockState {
  now: string;
  offset_ms: number;
}

export function clockState(): ClockState {
  return { now: new Date(Date.now() + offset[0]!).toISOString(), offset_ms: offset[0]! };
}

/** Sets the offset from `{offset_ms}` or `{now}`; throws a message for anything else. */
export function setClock(body: unknown): ClockState {
  const input = (body ?? {}) as { offset_ms?: unknown; now?: unknown };
  if (typeof input.offset_ms === 'number' && Number.isFinite(input.offset_ms)) offset[0] = Math.trunc(input.offset_ms);
  else if (typeof input.now === 'string' && !Number.isNaN(Date.parse(input.now))) offset[0] = Date.parse(input.now) - Date.now();
  else throw new Error('body must be {"offset_ms": <integer>} or {"now": "<ISO 8601 time>"}');
  return changed();
}

export function resetClock(): ClockState {
  offset[0] = 0;
  return changed();
}
