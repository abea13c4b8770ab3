/**
 * When a dashboard session ends (docs/dashboard.md, "Sign-in and sessions"); pure, the clock is the
 * caller's.
 *
 * - absolute expiry: 7 days after sign-in, however active the session is (then sign in again);
 * - idle expiry: 12 hours after the last request seen (a working day, overnight ends it);
 * - the last request seen is written at most once per SESSION_TOUCH_INTERVAL_MS (5 minutes), so a busy
 *   user's requests are reads, not a write each: the session is never a hot item. The cost is that idle
 *   expiry may come up to 5 minutes early.
 *
 * The stored item also carries a DynamoDB TTL (the earlier of both expiries): expired sessions are
 * removed eventually, but a session's expiry is always checked on read (TTL deletion is lazy).
 */
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_TOUCH_INTERVAL_MS = 5 * 60 * 1000;

/** The times a session carries (ISO strings) and its TTL (epoch seconds). */
export interface SessionTimes {
  created_at: string;
  last_seen_at: string;
  /** Absolute expiry: created_at + 7 days. */
  expires_at: string;
  /** Idle expiry: last_seen_at + 12 hours, never after expires_at. */
  idle_expires_at: string;
  ttl: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

function timesFrom(createdMs: number, lastSeenMs: number): SessionTimes {
  const expires = createdMs + SESSION_ABSOLUTE_MS;
  const idle = Math.min(lastSeenMs + SESSION_IDLE_MS, expires);
  return {
    created_at: iso(createdMs),
    last_seen_at: iso(lastSeenMs),
    expires_at: iso(expires),
    idle_expires_at: iso(idle),
    ttl: Math.ceil(idle / 1000),
  };
}

export function newSessionTimes(now: Date): SessionTimes {
  return timesFrom(now.getTime(), now.getTime());
}

/** Why a session is over at `now` (null: it is live). */
export function sessionEnded(times: Pick<SessionTimes, 'expires_at' | 'idle_expires_at'>, now: Date): 'expired' | 'idle' | null {
  const at = now.getTime();
  if (at >= Date.parse(times.expires_at)) return 'expired';
  if (at >= Date.parse(times.idle_expires_at)) return 'idle';
  return null;
}

/** The times after a request at `now`, or null when the last one written is recent enough to keep. */
export function touchedTimes(times: SessionTimes, now: Date): SessionTimes | null {
  const at = now.getTime();
  if (at - Date.parse(times.last_seen_at) < SESSION_TOUCH_INTERVAL_MS) return null;
  return timesFrom(Date.parse(times.created_at), at);
}
