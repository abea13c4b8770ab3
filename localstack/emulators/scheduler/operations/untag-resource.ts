/** UntagResource (DELETE /tags/{ResourceArn}?TagKeys=, https://docs.aws.amazon.com/scheduler/latest/APIReference/API_UntagResource.html): removes those keys from a schedule group's tags. */
import { requireGroupArn } from '../records';
import type { SchedulerRequest } from '../request';
import type { SchedulerState } from '../state';
import type { JsonObject } from '../validation';

export function untagResource(state: SchedulerState, request: SchedulerRequest): JsonObject {
  const group = requireGroupArn(state, request.params[0] as string);
  const keys = new Set(request.query.getAll('TagKeys'));
  state.store.putGroup({ ...group, Tags: group.Tags.filter((t) => !keys.has(t.Key)) });
  return {};
}
