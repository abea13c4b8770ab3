/**
 * The routing table of the Scheduler emulator: the Scheduler REST-JSON routes, as the SDK's operation
 * schemas define them (@aws-sdk/client-scheduler), each a module of ./operations/. A path is a regular
 * expression whose captures (percent-decoded) are the operation's `params`, in order. A route marked
 * `mutates` is answered only once its change is persisted (./server.ts). Anything else is 404
 * UnknownOperationException at once.
 */
import * as op from './operations';
import type { SchedulerRequest } from './request';
import type { SchedulerState } from './state';
import type { JsonObject } from './validation';

export interface SchedulerRoute {
  method: string;
  path: RegExp;
  /** Mutating operations answer only once the change is persisted. */
  mutates: boolean;
  operation: (state: SchedulerState, request: SchedulerRequest) => JsonObject;
}

type Operation = SchedulerRoute['operation'];
const reads = (method: string, path: RegExp, operation: Operation): SchedulerRoute => ({ method, path, mutates: false, operation });
const changes = (method: string, path: RegExp, operation: Operation): SchedulerRoute => ({ method, path, mutates: true, operation });

const ROUTES: readonly SchedulerRoute[] = [
  reads('GET', /^\/schedules$/, op.listSchedules),
  changes('POST', /^\/schedules\/([^/]+)$/, op.createSchedule),
  reads('GET', /^\/schedules\/([^/]+)$/, op.getSchedule),
  changes('PUT', /^\/schedules\/([^/]+)$/, op.updateSchedule),
  changes('DELETE', /^\/schedules\/([^/]+)$/, op.deleteSchedule),
  reads('GET', /^\/schedule-groups$/, op.listScheduleGroups),
  changes('POST', /^\/schedule-groups\/([^/]+)$/, op.createScheduleGroup),
  reads('GET', /^\/schedule-groups\/([^/]+)$/, op.getScheduleGroup),
  changes('DELETE', /^\/schedule-groups\/([^/]+)$/, op.deleteScheduleGroup),
  reads('GET', /^\/tags\/(.+)$/, op.listTagsForResource),
  changes('POST', /^\/tags\/(.+)$/, op.tagResource),
  changes('DELETE', /^\/tags\/(.+)$/, op.untagResource),
];

/** The first route of `method` whose path matches `pathname`, with its captures (not yet decoded); undefined when none. */
export function findRoute(method: string, pathname: string): { route: SchedulerRoute; captures: string[] } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const match = route.path.exec(pathname);
    if (match) return { route, captures: match.slice(1) };
  }
  return undefined;
}
