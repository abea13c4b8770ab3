/**
 * What several operations share on the store's records: the group, group ARN or schedule a request names
 * (ResourceNotFoundException when there is none), and the stored record of a validated schedule.
 */
import { notFound } from './errors';
import type { SchedulerState } from './state';
import { DEFAULT_GROUP, type GroupRecord, type ScheduleRecord } from './types';
import { validateName, type ScheduleInput } from './validation';

export function requireGroup(state: SchedulerState, name: string): GroupRecord {
  const group = state.store.getGroup(name);
  if (!group) throw notFound(`Schedule group ${name} does not exist.`);
  return group;
}

export function requireGroupArn(state: SchedulerState, arn: string): GroupRecord {
  const group = state.store.groupByArn(arn);
  if (!group) throw notFound(`Resource ${arn} does not exist.`);
  return group;
}

/** The schedule of GetSchedule and DeleteSchedule: its name in the path, its group in `groupName` (default when absent or empty). */
export function requireSchedule(state: SchedulerState, nameRaw: string, groupRaw: string | null): ScheduleRecord {
  const name = validateName(nameRaw, 'name');
  const group = groupRaw === null || groupRaw === '' ? DEFAULT_GROUP : validateName(groupRaw, 'groupName');
  const record = state.store.getSchedule(group, name);
  if (!record) throw notFound(`Schedule ${name} does not exist.`);
  return record;
}

export function toRecord(
  state: SchedulerState,
  name: string,
  input: ScheduleInput,
  dates: { created: number; modified: number },
  fired: boolean,
): ScheduleRecord {
  const { ClientToken, ...fields } = input;
  return {
    ...fields,
    Name: name,
    Arn: state.store.scheduleArn(input.GroupName, name),
    CreationDate: dates.created,
    LastModificationDate: dates.modified,
    fired,
    ...(ClientToken !== undefined ? { clientToken: ClientToken } : {}),
  };
}
