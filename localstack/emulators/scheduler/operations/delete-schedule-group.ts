/**
 * DeleteScheduleGroup (DELETE /schedule-groups/{Name}, https://docs.aws.amazon.com/scheduler/latest/APIReference/API_DeleteScheduleGroup.html):
 * deletes the group and all its schedules (AWS does this asynchronously; here it is immediate). The default
 * group cannot be deleted.
 */
import { validation } from '../errors';
import { requireGroup } from '../records';
import type { SchedulerRequest } from '../request';
import type { SchedulerState } from '../state';
import { DEFAULT_GROUP } from '../types';
import type { JsonObject } from '../validation';

export function deleteScheduleGroup(state: SchedulerState, request: SchedulerRequest): JsonObject {
  const nameRaw = request.params[0] as string;
  if (nameRaw === DEFAULT_GROUP) throw validation('The default schedule group cannot be deleted.');
  const group = requireGroup(state, nameRaw);
  state.store.deleteGroup(group.Name);
  return {};
}
