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
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { contentOf, publishedTemplateOf, type PublishedTemplate, type PublishedVersion, type Template } from '../domain/templates/template';
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

function toTemplate(item: Record<string, any>): Template {
  const { type: _type, published, revision, ...rest } = withoutKeys(item);
  return { ...(rest as Omit<Template, 'published' | 'revision'>), revision: Number(revision), published: published ? { ...published, version: Number(published.version) } : null };
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
    const result = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.template(accountId, alias), ConsistentRead: true }));
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
   * Makes `version` the published version, if the draft is still at `draftRevision` and the published
   * version is still the one read (`previousVersion`, 0 for none).
   */
  async publish(accountId: string, alias: string, version: PublishedVersion, draftRevision: number, previousVersion: number): Promise<SaveTemplateOutcome> {
    const item = await updateIfCondition(this.table, {
      Key: keys.template(accountId, alias),
      UpdateExpression: 'SET #published = :published, #updated_at = :now',
      ConditionExpression: `attribute_exists(PK) AND #revision = :revision AND ${previousVersion === 0 ? 'attribute_not_exists(#published)' : '#published.#version = :previous'}`,
      ExpressionAttributeNames: { '#published': 'published', '#updated_at': 'updated_at', '#revision': 'revision', ...(previousVersion === 0 ? {} : { '#version': 'version' }) },
      ExpressionAttributeValues: { ':published': version, ':now': version.published_at, ':revision': draftRevision, ...(previousVersion === 0 ? {} : { ':previous': previousVersion }) },
    });
    return item ? { kind: 'saved', template: toTemplate(item) } : { kind: 'conflict' };
  }

  /** Deletes the template (its alias is free again) and frees its slot, together. False when there is none. */
  async delete(accountId: string, alias: string): Promise<boolean> {
    try {
      await transactWrite(this.table, [
        { Delete: { TableName: this.table.name, Key: keys.template(accountId, alias), ConditionExpression: 'attribute_exists(PK)' } },
        freeSlotItem(this.table, accountId, COUNTER),
      ]);
      return true;
    } catch (error) {
      if (cancelledConditionIndexes(error).length) return false;
      throw error;
    }
  }

  /**
   * The published version the send path renders: one strongly consistent GetItem (so a publish that
   * answered is used by the next send). A template never published is `not_published`.
   */
  async getPublished(accountId: string, alias: string): Promise<GetPublishedOutcome> {
    const result = await this.table.client.send(
      new GetCommand({
        TableName: this.table.name,
        Key: keys.template(accountId, alias),
        ConsistentRead: true,
        ProjectionExpression: '#id, #alias, #published',
        ExpressionAttributeNames: { '#id': 'id', '#alias': 'alias', '#published': 'published' },
      }),
    );
    if (!result.Item) return { kind: 'not_found' };
    if (!result.Item.published) return { kind: 'not_published' };
    const published = result.Item.published as PublishedVersion;
    return { kind: 'found', template: publishedTemplateOf({ id: result.Item.id, alias: result.Item.alias }, { ...published, version: Number(published.version) }) };
  }
}
