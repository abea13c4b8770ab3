/**
 * Each local queue's backlog for `/health`: messages not yet deleted (ready, delayed or in flight) and
 * the age of the oldest, as CloudWatch's ApproximateAgeOfOldestMessage reports it on AWS.
 */
import type { LocalMessaging } from './local-messaging';

export interface QueueBacklog {
  messages: number;
  oldest_age_seconds: number | null;
}

/** `names`: the deployed queues (the template's, by physical name). */
export function queueBacklog(fauxqs: LocalMessaging, names: readonly string[], now = Date.now()): Record<string, QueueBacklog> {
  const backlog: Record<string, QueueBacklog> = {};
  for (const name of names) {
    const state = fauxqs.inspectQueue(name);
    if (!state) continue;
    const all = [...state.messages.ready, ...state.messages.delayed, ...state.messages.inflight.map((entry) => entry.message)];
    const oldest = all.reduce<number | null>(
      (min, message) => (min === null || message.sentTimestamp < min ? message.sentTimestamp : min),
      null,
    );
    backlog[name] = { messages: all.length, oldest_age_seconds: oldest === null ? null : Math.max(0, Math.round((now - oldest) / 1000)) };
  }
  return backlog;
}
