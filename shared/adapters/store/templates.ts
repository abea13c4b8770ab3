/**
 * Templates repository (docs/templates.md). One item per template, keyed by account and alias
 * (PK TEMPLATE#<acc>#<alias>), so an alias is unique per account by the key itself: a conditional put,
 * and concurrent creates of one alias make exactly one template. The item holds the draft's fields at
 * the top level and the published version as one map (`published`, absent before the first publish);
 * the limits (TEMPLATE_LIMITS) keep both under DynamoDB's 400 KB. Listed per account through GSI1
 * (ACCOUNT#<acc>#TEMPLATES / <tpl id>, newest first).
 *
 * Every change is conditional on the draft's `revision` as read: an edit increments it, and a publish
 * requires it unchanged (and the published version it read), so a publish racing a PATCH never
 * publishes a mix of two drafts; the loser reads again. Creation takes a slot of the account's
 * COUNTER#TEMPLATES in the same transaction; deletion gives it back.
 *
 * What sends read is kept apart from that large item (up to ~400 KB, which a strongly consistent read
 * would be charged for in full on every send): a publish also writes, in the same transaction, the
 * version as its own item (`VERSION#<tpl>#<n>`, immutable, so a process may keep it) and a pointer of a
 * few bytes (`PUBLISHED`: template id and version). A send reads the pointer (one consistent read unit)
 * and the version only when it has not seen it (shared/usecases/send/published-templates.ts).
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchWrite, deleteRequests } from './batch-write';
import {
  contentOf,
  publishedTemplateOf,
  type PublishedTemplate,
  type PublishedVersion,
  type Template,
} from '../../domain/templates/template';
import { freeSlotItem, takeSlotItem } from './counters';
import type { Page } from './cursor';
import { keys } from './keys';
import { queryGsi1NewestFirst, type PageRequest } from './paginate';
import { cancelledConditionIndexes, setChanges, transactWrite, updateIfCondition, withoutKeys, type Table } from './table';

const COUNTER = 'TEMPLATES';

export type CreateTemplateOutcome = { kind: 'created' } | { kind: 'alias_taken' } | { kind: 'limit_reached' };

/** `conflict`: the template is gone, or changed since the revision (or published version) read. */
export type SaveTemplateOutcome = { kind: 'saved'; template: Template } | { kind: 'conflict' };

export type GetPublishedOutcome = { kind: 'found'; template: PublishedTemplate } | { kind: 'not_found' } | { kind: 'not_published' };

/** Which version of which template a send uses now. */
export type PublishedPointer =
  | { kind: 'published'; templateId: string; alias: string; version: number }
  | { kind: 'not_found' }
  | { kind: 'not_published' };

function toTemplate(item: Record<string, unknown>): Template {
  const { type: _type, published: stored, revision, ...rest } = withoutKeys(item);
  const published = stored as PublishedVersion | null | undefined;
  return {
    ...(rest as Omit<Template, 'published' | 'revision'>),
    revision: Number(revision),
    published: published ? { ...published, version: Number(published.version) } : null,
  };
}

export class TemplateRepository {
  constructor(private readonly table: Table) {}

  /** Writes a new template (a draft) and takes one of the account's `limit` slots, together. */
  async create(template: Template, limit: number): Promise<CreateTemplateOutcome> {
    const { published, ...draft } = template;
    try {
      await transactWrite(this.table, [
        {
          Put: {
            TableName: this.table.name,
            Item: {
              ...keys.template(template.account_id, template.alias),
              GSI1PK: keys.templatesByAccount(template.account_id),
              GSI1SK: template.id,
              type: 'template',
              ...draft,
              ...(published ? { published } : {}),
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        takeSlotItem(this.table, template.account_id, COUNTER, limit),
      ]);
      return { kind: 'created' };
    } catch (error) {
      const failed = cancelledConditionIndexes(error);
      if (failed.includes(0)) return { kind: 'alias_taken' };
      if (failed.includes(1)) return { kind: 'limit_reached' };
      throw error;
    }
  }

  /** The account's template with this alias (strongly consistent), or null. */
  async get(accountId: string, alias: string): Promise<Template | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.template(accountId, alias), ConsistentRead: true }),
    );
    return result.Item ? toTemplate(result.Item) : null;
  }

  /** One page of the account's templates, newest first; eventually consistent (GSI1). */
  list(accountId: string, page: PageRequest): Promise<Page<Template>> {
    return queryGsi1NewestFirst(this.table, keys.templatesByAccount(accountId), page, toTemplate);
  }

  /** Writes `next`'s draft (name and content) as revision `expectedRevision + 1`, if the draft is still at `expectedRevision`. */
  async saveDraft(next: Template, expectedRevision: number, now: string): Promise<SaveTemplateOutcome> {
    const update = setChanges({ name: next.name, ...contentOf(next), revision: expectedRevision + 1 }, now);
    const item = await updateIfCondition(this.table, {
      Key: keys.template(next.account_id, next.alias),
      ...update,
      ConditionExpression: 'attribute_exists(PK) AND #revision = :expected',
      ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':expected': expectedRevision },
    });
    return item ? { kind: 'saved', template: toTemplate(item) } : { kind: 'conflict' };
  }

  /**
   * Makes `version` the published version of `current`, if it is still that template, its draft still
   * at the revision read and its published version still the one read: the template item, the version's
   * own item and the pointer sends read, in one transaction. Answers the template as written (no re-read).
   */
  async publish(current: Template, version: PublishedVersion): Promise<SaveTemplateOutcome> {
    const { account_id: accountId, alias, id: templateId, revision: draftRevision } = current;
    const previousVersion = current.published?.version ?? 0;
    const key = keys.template(accountId, alias);
    try {
      await transactWrite(this.table, [
        {
          Update: {
            TableName: this.table.name,
            Key: key,
            UpdateExpression: 'SET #published = :published, #updated_at = :now',
            ConditionExpression: `attribute_exists(PK) AND #id = :id AND #revision = :revision AND ${previousVersion === 0 ? 'attribute_not_exists(#published)' : '#published.#version = :previous'}`,
            ExpressionAttributeNames: {
              '#published': 'published',
              '#updated_at': 'updated_at',
              '#revision': 'revision',
              '#id': 'id',
              ...(previousVersion === 0 ? {} : { '#version': 'version' }),
            },
            ExpressionAttributeValues: {
              ':published': version,
              ':now': version.published_at,
              ':revision': draftRevision,
              ':id': templateId,
              ...(previousVersion === 0 ? {} : { ':previous': previousVersion }),
            },
          },
        },
        {
          Put: {
            TableName: this.table.name,
            Item: {
              ...keys.templateVersion(accountId, alias, templateId, version.version),
              type: 'template_version',
              id: templateId,
              alias,
              ...version,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Put: {
            TableName: this.table.name,
            Item: {
              ...keys.templatePublished(accountId, alias),
              type: 'template_published',
              template_id: templateId,
              alias,
              version: version.version,
            },
          },
        },
      ]);
    } catch (error) {
      if (cancelledConditionIndexes(error).length) return { kind: 'conflict' };
      throw error;
    }
    return { kind: 'saved', template: { ...current, published: version, updated_at: version.published_at } };
  }

  /** Deletes the template (its alias is free again) and frees its slot, together. False when there is none. */
  async delete(accountId: string, alias: string): Promise<boolean> {
    try {
      await transactWrite(this.table, [
        { Delete: { TableName: this.table.name, Key: keys.template(accountId, alias), ConditionExpression: 'attribute_exists(PK)' } },
        // Sends stop finding it at once; its versions are removed next (a template re-created under the
        // alias has another id, so a version left by a failure there is never read).
        { Delete: { TableName: this.table.name, Key: keys.templatePublished(accountId, alias) } },
        freeSlotItem(this.table, accountId, COUNTER),
      ]);
    } catch (error) {
      if (cancelledConditionIndexes(error).length) return false;
      throw error;
    }
    await this.deleteVersions(accountId, alias);
    return true;
  }

  /** Removes every version item under the alias (they are never read once the pointer is gone). */
  private async deleteVersions(accountId: string, alias: string): Promise<void> {
    const { PK } = keys.template(accountId, alias);
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.name,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :versions)',
          ExpressionAttributeValues: { ':pk': PK, ':versions': 'VERSION#' },
          ProjectionExpression: 'PK, SK',
          ExclusiveStartKey: start,
        }),
      );
      await batchWrite(this.table, deleteRequests((page.Items ?? []).map((item) => ({ PK: item.PK, SK: item.SK }))));
      start = page.LastEvaluatedKey;
    } while (start);
  }

  /**
   * Which version of the template a send uses now: the pointer, one strongly consistent read of a few
   * bytes (so a publish that answered is used by the next send). Without a pointer, the template item
   * tells not_found from not_published (only on that error path).
   */
  async publishedPointer(accountId: string, alias: string): Promise<PublishedPointer> {
    const pointer = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.templatePublished(accountId, alias), ConsistentRead: true }),
    );
    if (pointer.Item) return { kind: 'published', templateId: pointer.Item.template_id, alias, version: Number(pointer.Item.version) };
    const template = await this.table.client.send(
      new GetCommand({
        TableName: this.table.name,
        Key: keys.template(accountId, alias),
        ConsistentRead: true,
        ProjectionExpression: '#id',
        ExpressionAttributeNames: { '#id': 'id' },
      }),
    );
    return template.Item ? { kind: 'not_published' } : { kind: 'not_found' };
  }

  /** One published version (immutable): null if it is gone (the template was deleted meanwhile). */
  async publishedVersion(accountId: string, pointer: Extract<PublishedPointer, { kind: 'published' }>): Promise<PublishedTemplate | null> {
    const result = await this.table.client.send(
      new GetCommand({
        TableName: this.table.name,
        Key: keys.templateVersion(accountId, pointer.alias, pointer.templateId, pointer.version),
        ConsistentRead: true,
      }),
    );
    if (!result.Item) return null;
    const { id, alias, type: _type, ...version } = withoutKeys(result.Item);
    return publishedTemplateOf({ id, alias }, { ...(version as PublishedVersion), version: Number(version.version) });
  }

  /** The published version a send renders: the pointer, then the version (no cache; see PublishedTemplates). */
  async getPublished(accountId: string, alias: string): Promise<GetPublishedOutcome> {
    const pointer = await this.publishedPointer(accountId, alias);
    if (pointer.kind !== 'published') return pointer;
    const template = await this.publishedVersion(accountId, pointer);
    return template ? { kind: 'found', template } : { kind: 'not_found' };
  }
}
