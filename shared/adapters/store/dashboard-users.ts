/**
 * Dashboard users repository (docs/dashboard.md). One item per user, keyed by its normalised email
 * (`DASHUSER#<email>`): an address belongs to at most one user in the whole deployment, enforced by a
 * conditional put, and the sign-in reads the user with one GetItem. Listed per account through GSI1
 * (`ACCOUNT#<acc>#DASHUSERS` / `<usr>`). The password hash stays on the item; only the use cases see it.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Account } from '../../domain/accounts/account';
import { dashboardUserSchema, type DashboardUser } from '../../domain/dashboard/user';
import { ConflictError } from '../../domain/errors';
import { getWithAccount } from './accounts';
import { decodeItem } from './decode';
import { keys } from './keys';
import { isConditionFailure, updateIfCondition, type Table } from './table';

function toUser(item: Record<string, unknown>): DashboardUser {
  return decodeItem(dashboardUserSchema, item, 'DashboardUser');
}

export class DashboardUserRepository {
  constructor(private readonly table: Table) {}

  /** Puts the user; 409 conflict when a user with this email exists (in any account). */
  async create(user: DashboardUser): Promise<void> {
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: { ...keys.dashboardUser(user.email), GSI1PK: keys.dashboardUsersByAccount(user.account_id), GSI1SK: user.id, type: 'dashboard_user', ...user },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError(`A dashboard user with the email ${user.email} already exists.`);
      throw error;
    }
  }

  async getByEmail(email: string): Promise<DashboardUser | null> {
    const result = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.dashboardUser(email), ConsistentRead: true }));
    return result.Item ? toUser(result.Item) : null;
  }

  /** The user and its account in one strongly consistent round trip (what every session request checks). */
  async getWithAccount(email: string, accountId: string): Promise<{ user: DashboardUser | null; account: Account | null }> {
    const { item, account } = await getWithAccount(this.table, keys.dashboardUser(email), accountId);
    return { user: item ? toUser(item) : null, account };
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
