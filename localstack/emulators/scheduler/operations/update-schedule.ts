/**
 * UpdateSchedule (PUT /schedules/{Name}, https://docs.aws.amazon.com/scheduler/latest/APIReference/API_UpdateSchedule.html):
 * replaces the whole definition (as AWS does: omitted optional fields go back to their defaults) and
 * re-arms the firing timers; the create's ClientToken and date are kept.
 */
import { notFound } from '../errors';
import { requireGroup, toRecord } from '../records';
import type { SchedulerRequest } from '../request';
import type { SchedulerState } from '../state';
import { DEFAULT_GROUP } from '../types';
import { validateName, validateScheduleInput, type JsonObject } from '../validation';

export function updateSchedule(state: SchedulerState, request: SchedulerRequest): JsonObject {
  const name = validateName(request.params[0], 'name');
  const input = validateScheduleInput(request.body, DEFAULT_GROUP);
  requireGroup(state, input.GroupName);
  const existing = state.store.getSchedule(input.GroupName, name);
  if (!existing) throw notFound(`Schedule ${name} does not exist.`);
  // A completed one-time schedule fires again only if its time was changed.
  const sameTime =
    existing.ScheduleExpression === input.ScheduleExpression && existing.ScheduleExpressionTimezone === input.ScheduleExpressionTimezone;
  const record = toRecord(
    state,
    name,
    { ...input, ClientToken: existing.clientToken },
    { created: existing.CreationDate, modified: state.now() },
    sameTime && existing.fired,
  );
  state.store.putSchedule(record);
  state.engine.notify(record);
  return { ScheduleArn: record.Arn };
}
