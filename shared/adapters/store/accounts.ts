/** Accounts repository. The owner email is unique across accounts (enforced with a guard item). */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { accountSchema, type Account, type AccountPauseFigures } from '../../domain/accounts/account';
import { ConflictError, NotFoundError } from '../../domain/errors';
import { batchGetItems } from './batch-get';
import { decodeItem } from './decode';
import { keys } from './keys';
import { cancelledConditionIndexes, isConditionFailure, setChanges, transactWrite, updateIfCondition, type Table } from './table';

export type AccountChanges = Partial<
  Pick<Account, 'plan' | 'payment_method' | 'tenants_enabled' | 'retention' | 'store_content' | 'suppress_bounce_categories'>
>;

export function toAccount(item: Record<string, unknown>): Account {
  return decodeItem(accountSchema, item, 'Account');
}

/**
 * A credential's item (an API key lookup, a dashboard user) and the account it names, in one strongly
 * consistent BatchGetItem: what every authenticated request checks (a removed account is refused at once).
 */
export async function getWithAccount(
  table: Table,
  key: { PK: string; SK: string },
  accountId: string,
): Promise<{ item: Record<string, unknown> | null; account: Account | null }> {
  const accountKey = keys.account(accountId);
  const items = await batchGetItems(table, [key, accountKey], { consistentRead: true });
  const find = (wanted: { PK: string; SK: string }) => items.find((item) => item.PK === wanted.PK && item.SK === wanted.SK) ?? null;
  const account = find(accountKey);
  return { item: find(key), account: account ? toAccount(account) : null };
}

export class AccountRepository {
  constructor(private readonly table: Table) {}

  /** Creates the account; `extraItems` are written in the same transaction (e.g. its first API key). */
  async create(account: Account, extraItems: Record<string, unknown>[] = []): Promise<void> {
    try {
      await transactWrite(this.table, [
        {
          Put: {
            TableName: this.table.name,
            Item: { ...keys.accountEmail(account.email), account_id: account.id },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Put: {
            TableName: this.table.name,
            Item: { ...keys.account(account.id), type: 'account', ...account },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        ...extraItems.map((Item) => ({
          Put: { TableName: this.table.name, Item, ConditionExpression: 'attribute_not_exists(PK)' },
        })),
      ]);
    } catch (error) {
      if (cancelledConditionIndexes(error).includes(0)) {
        throw new ConflictError(`An account with the email ${account.email} already exists.`);
      }
      throw error;
    }
  }

  async get(accountId: string): Promise<Account | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.account(accountId), ConsistentRead: true }),
    );
    return result.Item ? toAccount(result.Item) : null;
  }

  async update(accountId: string, changes: AccountChanges, now: string): Promise<Account> {
    try {
      const result = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.account(accountId),
          ...setChanges(changes, now),
          ConditionExpression: 'attribute_exists(PK)',
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toAccount(result.Attributes ?? {});
    } catch (error) {
      if (isConditionFailure(error)) throw new NotFoundError('Account', accountId);
      throw error;
    }
  }

  /**
   * The reputation brake pauses the account: only while it is active (absent status is active), so a
   * manual pause keeps its reason and concurrent checks pause once. False when it was not active (or is gone).
   */
  async pauseAutomatically(accountId: string, pause: { reason: string; figures: AccountPauseFigures }, now: string): Promise<boolean> {
    const item = await updateIfCondition(this.table, {
      Key: keys.account(accountId),
      UpdateExpression:
        'SET #status = :paused, pause_source = :automated, paused_reason = :reason, paused_at = :now, pause_figures = :figures, updated_at = :now',
      ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#status) OR #status = :active)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':paused': 'paused',
        ':automated': 'automated',
        ':reason': pause.reason,
        ':now': now,
        ':figures': pause.figures,
        ':active': 'active',
      },
      ReturnValues: 'NONE',
    });
    return item !== null;
  }

  /** An operator pauses the account (`manual`): answers the account, or null when it was already paused; 404 when there is none. */
  async pauseManually(accountId: string, reason: string, now: string): Promise<Account | null> {
    const item = await updateIfCondition(this.table, {
      Key: keys.account(accountId),
      UpdateExpression:
        'SET #status = :paused, pause_source = :manual, paused_reason = :reason, paused_at = :now, pause_figures = :none, updated_at = :now',
      ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#status) OR #status = :active)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':paused': 'paused',
        ':manual': 'manual',
        ':reason': reason,
        ':now': now,
        ':none': null,
        ':active': 'active',
      },
    });
    if (item) return toAccount(item);
    if (!(await this.get(accountId))) throw new NotFoundError('Account', accountId);
    return null;
  }

  /** An operator resumes a paused account (either source): answers it, or null when it was not paused; 404 when there is none. */
  async resume(accountId: string, now: string): Promise<Account | null> {
    const item = await updateIfCondition(this.table, {
      Key: keys.account(accountId),
      UpdateExpression: 'SET #status = :active, updated_at = :now REMOVE paused_reason, paused_at, pause_source, pause_figures',
      ConditionExpression: 'attribute_exists(PK) AND #status = :paused',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':paused': 'paused', ':active': 'active', ':now': now },
    });
    if (item) return toAccount(item);
    if (!(await this.get(accountId))) throw new NotFoundError('Account', accountId);
    return null;
  }
}
