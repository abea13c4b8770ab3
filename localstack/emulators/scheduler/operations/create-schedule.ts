/**
 * CreateSchedule (POST /schedules/{Name}, https://docs.aws.amazon.com/scheduler/latest/APIReference/API_CreateSchedule.html):
 * a schedule in an existing group (ResourceNotFoundException otherwise), armed on the firing timers;
 * ConflictException for a name in use, unless it is the SDK's retry of the same create (same ClientToken).
 */
import { conflict } from '../errors';
import { requireGroup, toRecord } from '../records';
import type { SchedulerRequest } from '../request';
import type { SchedulerState } from '../state';
import { DEFAULT_GROUP } from '../types';
import { validateName, validateScheduleInput, type JsonObject } from '../validation';

export function createSchedule(state: SchedulerState, request: SchedulerRequest): JsonObject {
  const name = validateName(request.params[0], 'name');
  const input = validateScheduleInput(request.body, DEFAULT_GROUP);
  requireGroup(state, input.GroupName);
  const existing = state.store.getSchedule(input.GroupName, name);
  if (existing) {
    // The SDK re-sends the same ClientToken when it retries: that is the same create, not a conflict.
    if (input.ClientToken !== undefined && existing.clientToken === input.ClientToken) return { ScheduleArn: existing.Arn };
    throw conflict(`Schedule ${name} already exists.`);
  }
  const now = state.now();
  const record = toRecord(state, name, input, { created: now, modified: now }, false);
  state.store.putSchedule(record);
  state.engine.notify(record);
  return { ScheduleArn: record.Arn };
}
