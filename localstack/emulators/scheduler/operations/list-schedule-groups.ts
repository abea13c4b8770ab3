/** ListScheduleGroups (GET /schedule-groups?NamePrefix=&MaxResults=&NextToken=, https://docs.aws.amazon.com/scheduler/latest/APIReference/API_ListScheduleGroups.html): sorted by name, a page at a time. */
import { DEFAULT_PAGE_SIZE, paginate } from '../paging';
import type { SchedulerRequest } from '../request';
import type { SchedulerState } from '../state';
import { validateMaxResults, type JsonObject } from '../validation';
import { groupView } from '../views';

export function listScheduleGroups(state: SchedulerState, request: SchedulerRequest): JsonObject {
  const { query } = request;
  const prefix = query.get('NamePrefix');
  const maxResults = validateMaxResults(query.get('MaxResults'), DEFAULT_PAGE_SIZE);
  const matching = state.store.sortedGroups().filter((g) => prefix === null || g.Name.startsWith(prefix));
  const page = paginate(matching, (g) => g.Name, maxResults, query.get('NextToken'));
  return { ScheduleGroups: page.items.map(groupView), ...(page.nextToken ? { NextToken: page.nextToken } : {}) };
}
