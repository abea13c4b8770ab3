/** GetSchedule (GET /schedules/{Name}?groupName=, https://docs.aws.amazon.com/scheduler/latest/APIReference/API_GetSchedule.html): the schedule with AWS's defaults filled in. */
import { requireSchedule } from '../records';
import type { SchedulerRequest } from '../request';
import type { SchedulerState } from '../state';
import type { JsonObject } from '../validation';
import { scheduleView } from '../views';

export function getSchedule(state: SchedulerState, request: SchedulerRequest): JsonObject {
  return scheduleView(requireSchedule(state, request.params[0] as string, request.query.get('groupName')));
}
