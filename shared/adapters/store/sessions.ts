/**
 * Dashboard sessions repository (docs/dashboard.md). One item per session, keyed by the SHA-256 of its
 * token (`SESSION#<hash>`): the token itself is only ever in the user's cookie. The item carries the
 * user (id, email, account), the session's CSRF token and its times (shared/domain/dashboard/session-policy.ts),
 * and a TTL at its earlier expiry. Every write is conditional on the item's existence where it matters,
 * so a signed-out session can never be brought back by a late refresh.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { SessionTimes } from '../../domain/dashboard/session-policy';
import { modelSchema } from '../../domain/model-schema';
import { decodeItem } from './decode';
import { keys } from './keys';
import { updateIfCondition, type Table } from './table';

export interface StoredSession extends SessionTimes {
  user_id: string;
  user_email: string;
  account_id: string;
  csrf_token: string;
}

/** The session item (its TTL, epoch seconds, is a number attribute: the document client reads it as one). */
const storedSessionSchema = modelSchema<StoredSession>()(
  z.object({
    user_id: z.string(),
    user_email: z.string(),
    account_id: z.string(),
    csrf_token: z.string(),
    created_at: z.string(),
    last_seen_at: z.string(),
    expires_at: z.string(),
    idle_expires_at: z.string(),
    ttl: z.number(),
  }),
);

function toSession(item: Record<string, unknown>): StoredSession {
  return decodeItem(storedSessionSchema, item, 'StoredSession');
}

export class SessionRepository {
  constructor(private readonly table: Table) {}

  /** Puts a new session (its token is fresh randomness: the condition only guards the impossible). */
  async create(tokenHash: string, session: StoredSession): Promise<void> {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...keys.session(tokenHash), type: 'dashboard_session', ...session },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async get(tokenHash: string): Promise<StoredSession | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.session(tokenHash), ConsistentRead: true }),
    );
    return result.Item ? toSession(result.Item) : null;
  }

  /** Records a later request (new idle expiry and TTL); false when the session is gone (signed out meanwhile). */
  async touch(tokenHash: string, times: SessionTimes): Promise<boolean> {
    const updated = await updateIfCondition(this.table, {
      Key: keys.session(tokenHash),
      UpdateExpression: 'SET last_seen_at = :seen, idle_expires_at = :idle, #ttl = :ttl',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':seen': times.last_seen_at, ':idle': times.idle_expires_at, ':ttl': times.ttl },
      ReturnValues: 'NONE',
    });
    return updated !== null;
  }

  async delete(tokenHash: string): Promise<void> {
    await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: keys.session(tokenHash) }));
  }
}
