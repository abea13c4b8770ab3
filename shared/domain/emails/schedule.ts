/** Rules for `scheduled_at` (POST /emails and PATCH /emails/{id}). Pure. */
import * as z from 'zod';
import { ValidationError } from '../errors';

/** How far ahead a send may be scheduled. */
export const MAX_SCHEDULE_AHEAD_DAYS = 365;

/** ISO 8601 date-time with a time zone (Z or an offset). */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** The field's format; normalised to ISO 8601 UTC. */
export const scheduledAtField = z
  .string()
  .refine((value) => ISO_8601.test(value) && !Number.isNaN(Date.parse(value)), {
    message: 'scheduled_at must be an ISO 8601 timestamp with a time zone, e.g. 2030-01-01T09:00:00Z',
  })
  .transform((value) => new Date(value).toISOString());

/** The time, when it is in the future and within the horizon; a 400 naming scheduled_at otherwise. */
export function checkScheduleTime(scheduledAt: string, now: Date): Date {
  const at = new Date(scheduledAt);
  const fail = (message: string) => new ValidationError(message, { details: { fields: [{ field: 'scheduled_at', message }] } });
  if (at.getTime() <= now.getTime()) throw fail(`scheduled_at must be in the future (got ${scheduledAt}; now is ${now.toISOString()}).`);
  if (at.getTime() > now.getTime() + MAX_SCHEDULE_AHEAD_DAYS * 86_400_000)
    throw fail(`scheduled_at may be at most ${MAX_SCHEDULE_AHEAD_DAYS} days ahead.`);
  return at;
}
