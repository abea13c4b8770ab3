/**
 * Dashboard invitations repository (docs/dashboard.md, "Teams and roles"). One item per invitation,
 * keyed by the SHA-256 of its token (`DASHINVITE#<hash>` / `DASHINVITE`): the token is only in the link,
 * so a copy of the table accepts nothing. Listed per account through GSI1 (`ACCOUNT#<acc>#DASHINVITES` /
 * `<inv>`); a DynamoDB TTL at its expiry removes a forgotten one.
 *
 * Accepting is one transaction: the invitation is deleted (conditional on it still existing and not
 * having expired: single use, even for two accepts at once), the user is put (conditional on its email
 * having no user) and, for an owner, the account's owner counter goes up (./dashboard-users.ts).
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { invitationSchema, type Invitation } from '../../domain/dashboard/invitation';
import type { DashboardUser } from '../../domain/dashboard/user';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import { decodeItem } from './decode';
import { keys } from './keys';
import { addOwner, type DashboardUserRepository, userItem } from './dashboard-users';
import { cancelledConditionIndexes, queryAll, transactWrite, type Table, type TransactItem } from './table';

export const invitationKey = (tokenHash: string) => ({ PK: `DASHINVITE#${tokenHash}`, SK: 'DASHINVITE' });
export const invitationsByAccount = (accountId: string) => `ACCOUNT#${accountId}#DASHINVITES`;

function toInvitation(item: Record<string, unknown>): Invitation {
  return decodeItem(invitationSchema, item, 'DashboardInvitation');
}

/** An invitation and the key it is stored under (what a revoke deletes). */
interface StoredInvitation {
  invitation: Invitation;
  key: { PK: string; SK: string };
}

export const INVITATION_NOT_VALID = 'This invitation link is not valid: it was used, revoked or has expired. Ask for a new invitation.';

export class InvitationRepository {
  constructor(
    private readonly table: Table,
    private readonly users: Pick<DashboardUserRepository, 'ensureOwnerCounter'>,
  ) {}

  async create(invitation: Invitation, tokenHash: string): Promise<void> {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...invitationKey(tokenHash),
          GSI1PK: invitationsByAccount(invitation.account_id),
          GSI1SK: invitation.id,
          type: 'dashboard_invitation',
          ...invitation,
          ttl: Math.ceil(Date.parse(invitation.expires_at) / 1000),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async getByTokenHash(tokenHash: string): Promise<Invitation | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: invitationKey(tokenHash), ConsistentRead: true }),
    );
    return result.Item ? toInvitation(result.Item) : null;
  }

  /** The account's invitations, oldest first (expired ones included until their TTL removes them). */
  async listByAccount(accountId: string): Promise<Invitation[]> {
    return (await this.stored(accountId)).map((stored) => stored.invitation);
  }

  /** Revokes (deletes) the account's invitation `id`; 404 when it has none such. */
  async delete(accountId: string, id: string): Promise<void> {
    const found = (await this.stored(accountId, id))[0];
    if (!found) throw new NotFoundError('Invitation', id);
    await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: found.key }));
  }

  /**
   * Accepts the invitation with `tokenHash` as `user` in one transaction (see the header): 400 when the
   * invitation is gone or expired at `now`, 409 when the address has a user meanwhile.
   */
  async accept(tokenHash: string, user: DashboardUser, now: Date): Promise<void> {
    const items: TransactItem[] = [
      {
        Delete: {
          TableName: this.table.name,
          Key: invitationKey(tokenHash),
          ConditionExpression: 'attribute_exists(PK) AND expires_at > :now AND account_id = :acc AND email = :email AND #role = :role',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':now': now.toISOString(), ':acc': user.account_id, ':email': user.email, ':role': user.role },
        },
      },
      { ConditionCheck: { TableName: this.table.name, Key: keys.account(user.account_id), ConditionExpression: 'attribute_exists(PK)' } },
      { Put: { TableName: this.table.name, Item: userItem(user), ConditionExpression: 'attribute_not_exists(PK)' } },
    ];
    if (user.role === 'owner') {
      await this.users.ensureOwnerCounter(user.account_id);
      items.push(addOwner(this.table, user.account_id));
    }
    try {
      await transactWrite(this.table, items);
    } catch (error) {
      const failed = cancelledConditionIndexes(error);
      if (failed.includes(0) || failed.includes(1)) throw new ValidationError(INVITATION_NOT_VALID);
      if (failed.includes(2)) throw new ConflictError(`A dashboard user with the email ${user.email} already exists: sign in instead.`);
      throw error;
    }
  }

  private stored(accountId: string, id?: string): Promise<StoredInvitation[]> {
    return queryAll(
      this.table,
      {
        IndexName: 'GSI1',
        KeyConditionExpression: id ? 'GSI1PK = :pk AND GSI1SK = :id' : 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': invitationsByAccount(accountId), ...(id ? { ':id': id } : {}) },
      },
      (item) => ({ invitation: toInvitation(item), key: { PK: String(item.PK), SK: String(item.SK) } }),
    );
  }
}
