/** GetScheduleGroup (GET /schedule-groups/{Name}, https://docs.aws.amazon.com/scheduler/latest/APIReference/API_GetScheduleGroup.html). */
import { requireGroup } from '../records';
import type { SchedulerRequest } from '../request';
import type { SchedulerState } from '../state';
import type { JsonObject } from '../validation';
import { groupView } from '../views';

export function getScheduleGroup(state: SchedulerState, request: SchedulerRequest): JsonObject {
  return groupView(requireGroup(state, request.params[0] as string));
}
