/**
 * Automations repository (docs/automations.md, "Storage"). One item per automation, keyed by account
 * and id (PK AUTOMATION#<acc>#<auto>), listed per account through GSI1 (ACCOUNT#<acc>#AUTOMATIONS /
 * <auto id>, newest first). Creation takes a slot of the account's COUNTER#AUTOMATIONS in the same
 * transaction; deletion gives it back.
 *
 * POST /events must find the active automations an event starts or cancels without reading all of an
 * account's automations: while (and only while) an automation is active, small pointer items say so,
 * one per (account, trigger event) (AUTOTRIGGER#<acc>#<event> / <auto>) and one per cancel_on_events
 * entry (AUTOCANCEL#<acc>#<event> / <auto>). They are their own partitions, read with a strongly
 * consistent Query, and written in the same transaction as the change that makes them true: create
 * as active, activate, pause, an edit of an active automation's trigger, delete.
 *
 * Every change is conditional on the `version` and `status` read (optimistic concurrency): an edit and
 * an activation racing each other cannot both win, so neither loses the other's change and the
 * pointers always match the stored trigger; the loser reads again (the use case retries).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Automation, AutomationStatus } from '../../domain/automations/automation';
import { batchGetItems } from './batch-get';
import { freeSlotItem, takeSlotItem } from './counters';
import type { Page } from './cursor';
import { keys } from './keys';
import { LIST_ITEMS_BUDGET_BYTES } from '../../domain/lambda-payload';
import { TtlCache } from '../../lib/ttl-cache';
import { queryGsi1NewestFirst, queryPage, type PageRequest } from './paginate';
import { cancelledConditionIndexes, queryAll, transactWrite, withoutKeys, type Table, type TransactItem } from './table';

const COUNTER = 'AUTOMATIONS';

export type CreateAutomationOutcome = { kind: 'created' } | { kind: 'limit_reached' };
/** `conflict`: the automation is gone, or its version or status changed since it was read. */
export type SaveAutomationOutcome = { kind: 'saved'; automation: Automation } | { kind: 'conflict' };

function toAutomation(item: Record<string, unknown>): Automation {
  const { type: _type, version, ...rest } = withoutKeys(item);
  // Saved before reach was recorded: no allowed_domains, any domain as then (docs/automations.md, "Reach").
  return {
    ...(rest as Omit<Automation, 'version'>),
    version: Number(version),
    activated_at: (rest.activated_at as string | undefined) ?? null,
    allowed_domains: (rest.allowed_domains as string[] | null | undefined) ?? null,
  };
}

/** The pointer keys an automation in this state must have (none unless active). */
function pointersOf(automation: Automation): Record<string, string>[] {
  if (automation.status !== 'active') return [];
  const { account_id: acc, id } = automation;
  return [
    keys.automationTrigger(acc, automation.trigger.event, id),
    ...automation.trigger.cancel_on_events.map((event) => keys.automationCancel(acc, event, id)),
  ];
}

const keyString = (key: Record<string, string>) => `${key.PK}\u0000${key.SK}`;

export class AutomationRepository {
  /**
   * `active`: the active automations of a pointer partition (an account's event) as read at most its ttl ago
   * (HOT_LOOKUPS_CACHE_MS; docs/reference/caches.md): every event of an
   * account with the same name reads the same partition, which DynamoDB serves at most 3,000 strongly
   * consistent reads a second. This process forgets a partition when it changes an automation of it; others
   * see the change within the ttl. None by default (read every time).
   */
  constructor(
    private readonly table: Table,
    private readonly active: TtlCache<string, Automation[]> = new TtlCache(0),
  ) {}

  /** What this process keeps of the pointer partitions `before` and `after` name is stale: forgotten. */
  private forget(...automations: (Automation | null)[]): void {
    for (const automation of automations) {
      if (!automation) continue;
      const { account_id: acc, trigger } = automation;
      this.active.delete(keys.automationTrigger(acc, trigger.event, '').PK);
      for (const event of trigger.cancel_on_events) this.active.delete(keys.automationCancel(acc, event, '').PK);
    }
  }

  private itemOf(automation: Automation): Record<string, unknown> {
    return {
      ...keys.automation(automation.account_id, automation.id),
      GSI1PK: keys.automationsByAccount(automation.account_id),
      GSI1SK: automation.id,
      type: 'automation',
      ...automation,
    };
  }

  /** Pointer items to put and delete when `before` (null: none) becomes `after` (null: deleted). */
  private pointerChanges(before: Automation | null, after: Automation | null): TransactItem[] {
    const old = before ? pointersOf(before) : [];
    const next = after ? pointersOf(after) : [];
    const kept = new Set(next.map(keyString));
    const items: TransactItem[] = [];
    for (const key of old) if (!kept.has(keyString(key))) items.push({ Delete: { TableName: this.table.name, Key: key } });
    // Put again even when unchanged: the pointer carries the version (a hint for readers), harmless.
    for (const key of next)
      items.push({
        Put: {
          TableName: this.table.name,
          Item: { ...key, type: 'automation_pointer', automation_id: after!.id, version: after!.version },
        },
      });
    return items;
  }

  /** Writes a new automation (draft or active, with its pointers) and takes one of the account's `limit` slots, together. */
  async create(automation: Automation, limit: number): Promise<CreateAutomationOutcome> {
    try {
      await transactWrite(this.table, [
        { Put: { TableName: this.table.name, Item: this.itemOf(automation), ConditionExpression: 'attribute_not_exists(PK)' } },
        takeSlotItem(this.table, automation.account_id, COUNTER, limit),
        ...this.pointerChanges(null, automation),
      ]);
      this.forget(automation);
      return { kind: 'created' };
    } catch (error) {
      if (cancelledConditionIndexes(error).includes(1)) return { kind: 'limit_reached' };
      throw error;
    }
  }

  /** The account's automation with this id (strongly consistent), or null. */
  async get(accountId: string, automationId: string): Promise<Automation | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.automation(accountId, automationId), ConsistentRead: true }),
    );
    return result.Item ? toAutomation(result.Item) : null;
  }

  /**
   * One page of the account's automations, newest first, optionally of one status; eventually consistent
   * (GSI1). A page also ends where its definitions (up to 256 KB each) would pass what a Lambda can answer.
   */
  list(accountId: string, page: PageRequest, status?: AutomationStatus): Promise<Page<Automation>> {
    const partition = keys.automationsByAccount(accountId);
    const fit = { maxPageBytes: LIST_ITEMS_BUDGET_BYTES };
    if (status === undefined) return queryGsi1NewestFirst(this.table, partition, page, toAutomation, undefined, fit);
    return queryPage(
      this.table,
      {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        FilterExpression: '#status = :status',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pk': partition, ':status': status },
        ScanIndexForward: false,
      },
      page,
      { GSI1PK: partition },
      (item) => ({ PK: item.PK, SK: item.SK, GSI1PK: item.GSI1PK, GSI1SK: item.GSI1SK }),
      toAutomation,
      fit,
    );
  }

  /**
   * Replaces `current` by `next` (definition, status, version, timestamps) if it is still at the
   * version and status read, and moves its pointers in the same transaction.
   */
  async save(current: Automation, next: Automation): Promise<SaveAutomationOutcome> {
    try {
      await transactWrite(this.table, [
        {
          Put: {
            TableName: this.table.name,
            Item: this.itemOf(next),
            ConditionExpression: 'attribute_exists(PK) AND #version = :version AND #status = :status',
            ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
            ExpressionAttributeValues: { ':version': current.version, ':status': current.status },
          },
        },
        ...this.pointerChanges(current, next),
      ]);
      this.forget(current, next);
      return { kind: 'saved', automation: next };
    } catch (error) {
      if (cancelledConditionIndexes(error).length) return { kind: 'conflict' };
      throw error;
    }
  }

  /** Deletes `current` (if still at the version and status read), its pointers, and frees its slot, together. */
  async delete(current: Automation): Promise<'deleted' | 'conflict'> {
    try {
      await transactWrite(this.table, [
        {
          Delete: {
            TableName: this.table.name,
            Key: keys.automation(current.account_id, current.id),
            ConditionExpression: 'attribute_exists(PK) AND #version = :version AND #status = :status',
            ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
            ExpressionAttributeValues: { ':version': current.version, ':status': current.status },
          },
        },
        ...this.pointerChanges(current, null),
        freeSlotItem(this.table, current.account_id, COUNTER),
      ]);
      this.forget(current);
      return 'deleted';
    } catch (error) {
      if (cancelledConditionIndexes(error).length) return 'conflict';
      throw error;
    }
  }

  /** The active automations this event starts (their trigger's event), oldest first. */
  activeByTrigger(accountId: string, eventName: string): Promise<Automation[]> {
    return this.activeByPointers(
      accountId,
      keys.automationTrigger(accountId, eventName, '').PK,
      (automation) => automation.trigger.event === eventName,
    );
  }

  /** The active automations whose runs this event cancels (their trigger's cancel_on_events), oldest first. */
  activeByCancelEvent(accountId: string, eventName: string): Promise<Automation[]> {
    return this.activeByPointers(accountId, keys.automationCancel(accountId, eventName, '').PK, (automation) =>
      automation.trigger.cancel_on_events.includes(eventName),
    );
  }

  /**
   * The pointers of one partition (strongly consistent), then the automations they name (one
   * consistent BatchGetItem), each checked again: active, and still matching (a pointer is only ever
   * written with its automation, so this is a guard, not a repair).
   */
  private async activeByPointers(
    accountId: string,
    partition: string,
    matches: (automation: Automation) => boolean,
  ): Promise<Automation[]> {
    const kept = this.active.get(partition);
    if (kept) return [...kept];
    const found = await this.readActive(accountId, partition, matches);
    this.active.set(partition, found);
    return [...found];
  }

  private async readActive(accountId: string, partition: string, matches: (automation: Automation) => boolean): Promise<Automation[]> {
    const ids = await queryAll(
      this.table,
      {
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        ProjectionExpression: 'SK',
        ConsistentRead: true,
      },
      (item) => String(item.SK),
    );
    if (!ids.length) return [];
    const items = await batchGetItems(
      this.table,
      ids.map((id) => keys.automation(accountId, id)),
      { consistentRead: true },
    );
    return items
      .map(toAutomation)
      .filter((automation) => automation.status === 'active' && matches(automation))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }
}
