/**
 * Dashboard users repository (docs/dashboard.md). One item per user, keyed by its normalised email
 * (`DASHUSER#<email>`): an address belongs to at most one user in the whole deployment, enforced by a
 * conditional put, and the sign-in reads the user with one GetItem. Listed per account through GSI1
 * (`ACCOUNT#<acc>#DASHUSERS` / `<usr>`). The password hash stays on the item; only the use cases see it.
 *
 * Teams ("Teams and roles"): the account's owners are counted on an item of their own
 * (`ACCOUNT#<acc>` / `DASHOWNERS`, attribute `owners`). Every write that makes, demotes or removes an
 * owner changes that counter in the same DynamoDB transaction, and a demotion or removal is conditional
 * on `owners > 1`: two requests that would each leave the other as the last owner cannot both commit
 * (DynamoDB serialises transactions on the counter item), whatever they read before. The counter of an
 * account whose owners were made before it existed is started from a count of its users, once, with a
 * conditional put (ensureOwnerCounter).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Account } from '../../domain/accounts/account';
import type { DashboardRole } from '../../domain/dashboard/roles';
import { dashboardUserSchema, type DashboardUser } from '../../domain/dashboard/user';
import { ConflictError } from '../../domain/errors';
import { getWithAccount } from './accounts';
import { decodeItem } from './decode';
import { keys } from './keys';
import {
  cancelledConditionIndexes,
  isConditionFailure,
  queryAll,
  transactWrite,
  updateIfCondition,
  type Table,
  type TransactItem,
} from './table';

function toUser(item: Record<string, unknown>): DashboardUser {
  return decodeItem(dashboardUserSchema, item, 'DashboardUser');
}

/** The owner counter's key (under the account's partition, beside the account item). */
export const ownerCounterKey = (accountId: string) => ({ PK: `ACCOUNT#${accountId}`, SK: 'DASHOWNERS' });

/** The user's item as stored (keys, GSI1 for the account's list). */
export function userItem(user: DashboardUser): Record<string, unknown> {
  return {
    ...keys.dashboardUser(user.email),
    GSI1PK: keys.dashboardUsersByAccount(user.account_id),
    GSI1SK: user.id,
    type: 'dashboard_user',
    ...user,
  };
}

/** The transaction's action that adds one owner (the counter exists: ensureOwnerCounter first). */
export function addOwner(table: Table, accountId: string): TransactItem {
  return {
    Update: {
      TableName: table.name,
      Key: ownerCounterKey(accountId),
      UpdateExpression: 'ADD owners :one',
      ExpressionAttributeValues: { ':one': 1 },
    },
  };
}

/** The transaction's action that takes one owner away, refused (ConditionalCheckFailed) when it is the last. */
function takeOwner(table: Table, accountId: string): TransactItem {
  return {
    Update: {
      TableName: table.name,
      Key: ownerCounterKey(accountId),
      UpdateExpression: 'SET owners = owners - :one',
      ConditionExpression: 'owners > :one',
      ExpressionAttributeValues: { ':one': 1 },
    },
  };
}

export const LAST_OWNER_MESSAGE = "This is the account's last owner: it cannot be removed or demoted. Make another member an owner first.";

export class DashboardUserRepository {
  constructor(private readonly table: Table) {}

  /** Puts the user (counting it when an owner); 409 conflict when a user with this email exists (in any account). */
  async create(user: DashboardUser): Promise<void> {
    const conflict = () => new ConflictError(`A dashboard user with the email ${user.email} already exists.`);
    if (user.role !== 'owner') {
      try {
        await this.table.client.send(
          new PutCommand({ TableName: this.table.name, Item: userItem(user), ConditionExpression: 'attribute_not_exists(PK)' }),
        );
      } catch (error) {
        if (isConditionFailure(error)) throw conflict();
        throw error;
      }
      return;
    }
    await this.ensureOwnerCounter(user.account_id);
    try {
      await transactWrite(this.table, [
        { Put: { TableName: this.table.name, Item: userItem(user), ConditionExpression: 'attribute_not_exists(PK)' } },
        addOwner(this.table, user.account_id),
      ]);
    } catch (error) {
      if (cancelledConditionIndexes(error).includes(0)) throw conflict();
      throw error;
    }
  }

  async getByEmail(email: string): Promise<DashboardUser | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.dashboardUser(email), ConsistentRead: true }),
    );
    return result.Item ? toUser(result.Item) : null;
  }

  /** The user and its account in one strongly consistent round trip (what every session request checks). */
  async getWithAccount(email: string, accountId: string): Promise<{ user: DashboardUser | null; account: Account | null }> {
    const { item, account } = await getWithAccount(this.table, keys.dashboardUser(email), accountId);
    return { user: item ? toUser(item) : null, account };
  }

  /** The account's users, oldest first (an account has a handful: one query, every page). */
  async listByAccount(accountId: string): Promise<DashboardUser[]> {
    return queryAll(
      this.table,
      {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.dashboardUsersByAccount(accountId) },
      },
      toUser,
    );
  }

  /** One user of the account by id (null when none): found through GSI1, then read strongly consistent. */
  async getById(accountId: string, userId: string): Promise<DashboardUser | null> {
    const found = await queryAll(
      this.table,
      {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK = :id',
        ExpressionAttributeValues: { ':pk': keys.dashboardUsersByAccount(accountId), ':id': userId },
      },
      toUser,
    );
    const user = found[0] ? await this.getByEmail(found[0].email) : null;
    return user && user.id === userId && user.account_id === accountId ? user : null;
  }

  /** The counter of the account's owners (null before ensureOwnerCounter ever ran for it). */
  async ownerCount(accountId: string): Promise<number | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: ownerCounterKey(accountId), ConsistentRead: true }),
    );
    return typeof result.Item?.owners === 'number' ? result.Item.owners : null;
  }

  /**
   * Starts the owner counter when the account has none yet (accounts whose owners were made before the
   * counter existed): the owners its users list, written only if no counter appeared meanwhile.
   */
  async ensureOwnerCounter(accountId: string): Promise<void> {
    if ((await this.ownerCount(accountId)) !== null) return;
    const owners = (await this.listByAccount(accountId)).filter((user) => user.role === 'owner').length;
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: { ...ownerCounterKey(accountId), type: 'dashboard_owner_count', account_id: accountId, owners },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /**
   * Sets `user`'s role to `role`, only while it still has the role it was read with, in one transaction
   * with the owner counter when an owner is made or demoted. 409 when the user changed meanwhile or when
   * it is the last owner.
   */
  async changeRole(user: DashboardUser, role: DashboardRole, now: string): Promise<DashboardUser> {
    const items: TransactItem[] = [
      {
        Update: {
          TableName: this.table.name,
          Key: keys.dashboardUser(user.email),
          UpdateExpression: 'SET #role = :role, updated_at = :now',
          ConditionExpression: 'id = :id AND #role = :from',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':role': role, ':now': now, ':id': user.id, ':from': user.role },
        },
      },
    ];
    if (user.role === 'owner' && role !== 'owner') items.push(takeOwner(this.table, user.account_id));
    if (user.role !== 'owner' && role === 'owner') items.push(addOwner(this.table, user.account_id));
    if (items.length > 1) await this.ensureOwnerCounter(user.account_id);
    await this.write(items);
    return { ...user, role, updated_at: now };
  }

  /** Deletes `user` (while it still has the role it was read with), taking it off the owner counter when an owner. 409 as changeRole. */
  async remove(user: DashboardUser): Promise<void> {
    const items: TransactItem[] = [
      {
        Delete: {
          TableName: this.table.name,
          Key: keys.dashboardUser(user.email),
          ConditionExpression: 'id = :id AND #role = :role',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':id': user.id, ':role': user.role },
        },
      },
    ];
    if (user.role === 'owner') {
      await this.ensureOwnerCounter(user.account_id);
      items.push(takeOwner(this.table, user.account_id));
    }
    await this.write(items);
  }

  private async write(items: TransactItem[]): Promise<void> {
    try {
      await transactWrite(this.table, items);
    } catch (error) {
      const failed = cancelledConditionIndexes(error);
      if (failed.includes(1)) throw new ConflictError(LAST_OWNER_MESSAGE, 'conflict', { details: { reason: 'last_owner' } });
      if (failed.includes(0)) throw new ConflictError('This member was changed or removed meanwhile: reload the members and try again.');
      throw error;
    }
  }

  /** Replaces the password hash, only while the user still has `previousHash` (a rehash never undoes a change). */
  async replacePasswordHash(email: string, previousHash: string, nextHash: string, now: string): Promise<boolean> {
    const updated = await updateIfCondition(this.table, {
      Key: keys.dashboardUser(email),
      UpdateExpression: 'SET password_hash = :next, updated_at = :now',
      ConditionExpression: 'password_hash = :previous',
      ExpressionAttributeValues: { ':next': nextHash, ':previous': previousHash, ':now': now },
      ReturnValues: 'NONE',
    });
    return updated !== null;
  }
}
