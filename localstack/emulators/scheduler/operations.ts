/**
 * The Scheduler API operations, on top of the store and the firing engine. Each method takes the
 * already-decoded request pieces and returns the JSON output, or throws a SchedulerError. All of
 * them are synchronous; the server persists after mutating ones.
 */
import { conflict, constraint, notFound, validation } from './errors';
import type { FiringEngine } from './firing';
import { paginate } from './paging';
import type { SchedulerStore } from './store';
import { DEFAULT_GROUP, scheduleKey, type ScheduleRecord, type Tag } from './types';
import { isObject, validateMaxResults, validateName, validateScheduleInput, type JsonObject, type ScheduleInput } from './validation';
import { groupView, scheduleSummaryView, scheduleView } from './views';

const DEFAULT_PAGE_SIZE = 100;

export class SchedulerOperations {
  constructor(
    private readonly store: SchedulerStore,
    private readonly engine: FiringEngine,
    private readonly now: () => number = Date.now,
  ) {}

  // --- schedules ---

  createSchedule(nameRaw: string, body: JsonObject): JsonObject {
    const name = validateName(nameRaw, 'name');
    const input = validateScheduleInput(body, DEFAULT_GROUP);
    this.requireGroup(input.GroupName);
    const existing = this.store.getSchedule(input.GroupName, name);
    if (existing) {
      // The SDK re-sends the same ClientToken when it retries: that is the same create, not a conflict.
      if (input.ClientToken !== undefined && existing.clientToken === input.ClientToken) return { ScheduleArn: existing.Arn };
      throw conflict(`Schedule ${name} already exists.`);
    }
    const now = this.now();
    const record = this.toRecord(name, input, now, now, false);
    this.store.putSchedule(record);
    this.engine.notify(record);
    return { ScheduleArn: record.Arn };
  }

  getSchedule(nameRaw: string, groupRaw: string | null): JsonObject {
    return scheduleView(this.requireSchedule(nameRaw, groupRaw));
  }

  /** Replaces the whole definition (as AWS does: omitted optional fields go back to their defaults). */
  updateSchedule(nameRaw: string, body: JsonObject): JsonObject {
    const name = validateName(nameRaw, 'name');
    const input = validateScheduleInput(body, DEFAULT_GROUP);
    this.requireGroup(input.GroupName);
    const existing = this.store.getSchedule(input.GroupName, name);
    if (!existing) throw notFound(`Schedule ${name} does not exist.`);
    // A completed one-time schedule fires again only if its time was changed.
    const sameTime =
      existing.ScheduleExpression === input.ScheduleExpression && existing.ScheduleExpressionTimezone === input.ScheduleExpressionTimezone;
    const record = this.toRecord(
      name,
      { ...input, ClientToken: existing.clientToken },
      existing.CreationDate,
      this.now(),
      sameTime && existing.fired,
    );
    this.store.putSchedule(record);
    this.engine.notify(record);
    return { ScheduleArn: record.Arn };
  }

  deleteSchedule(nameRaw: string, groupRaw: string | null): JsonObject {
    const record = this.requireSchedule(nameRaw, groupRaw);
    this.store.deleteSchedule(record.GroupName, record.Name);
    return {};
  }

  listSchedules(query: URLSearchParams): JsonObject {
    const prefix = query.get('NamePrefix');
    const group = query.get('ScheduleGroup');
    const state = query.get('State');
    if (state !== null && state !== 'ENABLED' && state !== 'DISABLED') {
      throw constraint('state', state, 'Member must satisfy enum value set: [ENABLED, DISABLED]');
    }
    const maxResults = validateMaxResults(query.get('MaxResults'), DEFAULT_PAGE_SIZE);
    const matching = this.store
      .sortedSchedules()
      .filter(
        (s) =>
          (prefix === null || s.Name.startsWith(prefix)) &&
          (group === null || s.GroupName === group) &&
          (state === null || s.State === state),
      );
    const page = paginate(matching, (s) => scheduleKey(s.GroupName, s.Name), maxResults, query.get('NextToken'));
    return { Schedules: page.items.map(scheduleSummaryView), ...(page.nextToken ? { NextToken: page.nextToken } : {}) };
  }

  // --- schedule groups ---

  createScheduleGroup(nameRaw: string, body: JsonObject): JsonObject {
    const name = validateName(nameRaw, 'name');
    const tags = validateTags(body.Tags ?? []);
    const token = typeof body.ClientToken === 'string' ? body.ClientToken : undefined;
    const existing = this.store.getGroup(name);
    if (existing) {
      if (token !== undefined && existing.clientToken === token) return { ScheduleGroupArn: existing.Arn };
      throw conflict(`Schedule group ${name} already exists.`);
    }
    const now = this.now();
    const arn = this.store.groupArn(name);
    this.store.putGroup({
      Name: name,
      Arn: arn,
      CreationDate: now,
      LastModificationDate: now,
      Tags: tags,
      ...(token !== undefined ? { clientToken: token } : {}),
    });
    return { ScheduleGroupArn: arn };
  }

  getScheduleGroup(nameRaw: string): JsonObject {
    return groupView(this.requireGroup(nameRaw));
  }

  /** Deletes the group and all its schedules (AWS does this asynchronously; here it is immediate). */
  deleteScheduleGroup(nameRaw: string): JsonObject {
    if (nameRaw === DEFAULT_GROUP) throw validation('The default schedule group cannot be deleted.');
    const group = this.requireGroup(nameRaw);
    this.store.deleteGroup(group.Name);
    return {};
  }

  listScheduleGroups(query: URLSearchParams): JsonObject {
    const prefix = query.get('NamePrefix');
    const maxResults = validateMaxResults(query.get('MaxResults'), DEFAULT_PAGE_SIZE);
    const matching = this.store.sortedGroups().filter((g) => prefix === null || g.Name.startsWith(prefix));
    const page = paginate(matching, (g) => g.Name, maxResults, query.get('NextToken'));
    return { ScheduleGroups: page.items.map(groupView), ...(page.nextToken ? { NextToken: page.nextToken } : {}) };
  }

  // --- tags (schedule groups only, as in AWS) ---

  listTagsForResource(arn: string): JsonObject {
    return { Tags: this.requireGroupArn(arn).Tags };
  }

  tagResource(arn: string, body: JsonObject): JsonObject {
    const group = this.requireGroupArn(arn);
    const added = validateTags(body.Tags);
    const merged = new Map(group.Tags.map((t) => [t.Key, t.Value]));
    for (const t of added) merged.set(t.Key, t.Value);
    this.store.putGroup({ ...group, Tags: [...merged].map(([Key, Value]) => ({ Key, Value })) });
    return {};
  }

  untagResource(arn: string, query: URLSearchParams): JsonObject {
    const group = this.requireGroupArn(arn);
    const keys = new Set(query.getAll('TagKeys'));
    this.store.putGroup({ ...group, Tags: group.Tags.filter((t) => !keys.has(t.Key)) });
    return {};
  }

  // --- helpers ---

  private requireGroup(name: string) {
    const group = this.store.getGroup(name);
    if (!group) throw notFound(`Schedule group ${name} does not exist.`);
    return group;
  }

  private requireGroupArn(arn: string) {
    const group = this.store.groupByArn(arn);
    if (!group) throw notFound(`Resource ${arn} does not exist.`);
    return group;
  }

  private requireSchedule(nameRaw: string, groupRaw: string | null): ScheduleRecord {
    const name = validateName(nameRaw, 'name');
    const group = groupRaw === null || groupRaw === '' ? DEFAULT_GROUP : validateName(groupRaw, 'groupName');
    const record = this.store.getSchedule(group, name);
    if (!record) throw notFound(`Schedule ${name} does not exist.`);
    return record;
  }

  private toRecord(name: string, input: ScheduleInput, created: number, modified: number, fired: boolean): ScheduleRecord {
    const { ClientToken, ...fields } = input;
    return {
      ...fields,
      Name: name,
      Arn: this.store.scheduleArn(input.GroupName, name),
      CreationDate: created,
      LastModificationDate: modified,
      fired,
      ...(ClientToken !== undefined ? { clientToken: ClientToken } : {}),
    };
  }
}

function validateTags(value: unknown): Tag[] {
  if (!Array.isArray(value)) throw constraint('tags', value, 'Member must not be null');
  return value.map((t, i) => {
    if (
      !isObject(t) ||
      typeof t.Key !== 'string' ||
      typeof t.Value !== 'string' ||
      t.Key.length < 1 ||
      t.Key.length > 128 ||
      t.Value.length > 256
    ) {
      throw constraint(`tags.${i + 1}`, JSON.stringify(t), 'Member must have a Key (1-128 chars) and a Value (0-256 chars)');
    }
    return { Key: t.Key, Value: t.Value };
  });
}
