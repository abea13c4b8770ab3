/**
 * ListSchedules (GET /schedules?NamePrefix=&ScheduleGroup=&State=&MaxResults=&NextToken=,
 * https://docs.aws.amazon.com/scheduler/latest/APIReference/API_ListSchedules.html): summaries sorted by group, then name, a page at a time.
 */
import { constraint } from '../errors';
import { DEFAULT_PAGE_SIZE, paginate } from '../paging';
import type { SchedulerRequest } from '../request';
import type { SchedulerState } from '../state';
import { scheduleKey } from '../types';
import { validateMaxResults, type JsonObject } from '../validation';
import { scheduleSummaryView } from '../views';

export function listSchedules(state: SchedulerState, request: SchedulerRequest): JsonObject {
  const { query } = request;
  const prefix = query.get('NamePrefix');
  const group = query.get('ScheduleGroup');
  const scheduleState = query.get('State');
  if (scheduleState !== null && scheduleState !== 'ENABLED' && scheduleState !== 'DISABLED') {
    throw constraint('state', scheduleState, 'Member must satisfy enum value set: [ENABLED, DISABLED]');
  }
  const maxResults = validateMaxResults(query.get('MaxResults'), DEFAULT_PAGE_SIZE);
  const matching = state.store
    .sortedSchedules()
    .filter(
      (s) =>
        (prefix === null || s.Name.startsWith(prefix)) &&
        (group === null || s.GroupName === group) &&
        (scheduleState === null || s.State === scheduleState),
    );
  const page = paginate(matching, (s) => scheduleKey(s.GroupName, s.Name), maxResults, query.get('NextToken'));
  return { Schedules: page.items.map(scheduleSummaryView), ...(page.nextToken ? { NextToken: page.nextToken } : {}) };
}
