/** ListTagsForResource (GET /tags/{ResourceArn}, https://docs.aws.amazon.com/scheduler/latest/APIReference/API_ListTagsForResource.html): a schedule group's tags (only groups have tags, as in AWS). */
import { requireGroupArn } from '../records';
import type { SchedulerRequest } from '../request';
import type { SchedulerState } from '../state';
import type { JsonObject } from '../validation';

export function listTagsForResource(state: SchedulerState, request: SchedulerRequest): JsonObject {
  return { Tags: requireGroupArn(state, request.params[0] as string).Tags };
}
