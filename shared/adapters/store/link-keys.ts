/**
 * Link signing keys (docs/tracking.md): one service-wide set of items, PK `LINKKEYS`, SK `KEY#<kid>` (the
 * kid zero-padded, so the newest key is the last in the partition). The 32-byte secret is stored sealed
 * by the SecretBox (context `{purpose: 'links', kid}`, sealed and opened by the use case); the kid is a
 * counter, so two processes creating "the next key" at once race for ONE item: `create` is a conditional
 * put and the loser reads the winner's key.
 *
 * Keys are never changed or deleted: a link signed under any of them keeps verifying.
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys';
import { isConditionFailure, type Table } from './table';

export interface StoredLinkKey {
  kid: string;
  /** The 32-byte secret (base64), sealed with context {purpose: 'links', kid}. */
  sealed_secret: string;
  created_at: string;
}

function toStoredLinkKey(item: Record<string, unknown>): StoredLinkKey {
  return { kid: item.kid as string, sealed_secret: item.sealed_secret as string, created_at: item.created_at as string };
}

export class LinkKeyRepository {
  constructor(private readonly table: Table) {}

  /** The newest key, or null before the first one exists. Strongly consistent. */
  async current(): Promise<StoredLinkKey | null> {
    const result = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.linkKeys(), ':prefix': 'KEY#' },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    const item = result.Items?.[0];
    return item ? toStoredLinkKey(item) : null;
  }

  /** One key by kid (null: no such key). Strongly consistent: a key created a moment ago is found. */
  async get(kid: string): Promise<StoredLinkKey | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.linkKey(kid), ConsistentRead: true }),
    );
    return result.Item ? toStoredLinkKey(result.Item) : null;
  }

  /** Puts the key unless its kid is taken (false: another writer created that kid first). */
  async create(key: StoredLinkKey): Promise<boolean> {
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: { ...keys.linkKey(key.kid), type: 'link_key', ...key },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
