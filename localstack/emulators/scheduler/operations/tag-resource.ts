/** TagResource (POST /tags/{ResourceArn}, https://docs.aws.amazon.com/scheduler/latest/APIReference/API_TagResource.html): adds or replaces a schedule group's tags. */
import { requireGroupArn } from '../records';
import type { SchedulerRequest } from '../request';
import type { SchedulerState } from '../state';
import { validateTags, type JsonObject } from '../validation';

export function tagResource(state: SchedulerState, request: SchedulerRequest): JsonObject {
  const group = requireGroupArn(state, request.params[0] as string);
  const added = validateTags(request.body.Tags);
  const merged = new Map(group.Tags.map((t) => [t.Key, t.Value]));
  for (const t of added) merged.set(t.Key, t.Value);
  state.store.putGroup({ ...group, Tags: [...merged].map(([Key, Value]) => ({ Key, Value })) });
  return {};
}
