/**
 * CreateScheduleGroup (POST /schedule-groups/{Name}, https://docs.aws.amazon.com/scheduler/latest/APIReference/API_CreateScheduleGroup.html):
 * a group with its tags; ConflictException for a name in use, unless it is the SDK's retry of the same
 * create (same ClientToken).
 */
import { conflict } from '../errors';
import type { SchedulerRequest } from '../request';
import type { SchedulerState } from '../state';
import { validateName, validateTags, type JsonObject } from '../validation';

export function createScheduleGroup(state: SchedulerState, request: SchedulerRequest): JsonObject {
  const { body } = request;
  const name = validateName(request.params[0], 'name');
  const tags = validateTags(body.Tags ?? []);
  const token = typeof body.ClientToken === 'string' ? body.ClientToken : undefined;
  const existing = state.store.getGroup(name);
  if (existing) {
    if (token !== undefined && existing.clientToken === token) return { ScheduleGroupArn: existing.Arn };
    throw conflict(`Schedule group ${name} already exists.`);
  }
  const now = state.now();
  const arn = state.store.groupArn(name);
  state.store.putGroup({
    Name: name,
    Arn: arn,
    CreationDate: now,
    LastModificationDate: now,
    Tags: tags,
    ...(token !== undefined ? { clientToken: token } : {}),
  });
  return { ScheduleGroupArn: arn };
}
