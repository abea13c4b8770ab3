/** DeleteSchedule (DELETE /schedules/{Name}?groupName=, https://docs.aws.amazon.com/scheduler/latest/APIReference/API_DeleteSchedule.html). */
import { requireSchedule } from '../records';
import type { SchedulerRequest } from '../request';
import type { SchedulerState } from '../state';
import type { JsonObject } from '../validation';

export function deleteSchedule(state: SchedulerState, request: SchedulerRequest): JsonObject {
  const record = requireSchedule(state, request.params[0] as string, request.query.get('groupName'));
  state.store.deleteSchedule(record.GroupName, record.Name);
  return {};
}
