/**
 * Idempotency records: one per (account, key), written with `attribute_not_exists` (or an expired
 * TTL) in the same transaction as what the request created, so concurrent requests with one key
 * create exactly one thing. Expired records count as absent on read (emulators do not expire items).
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { IDEMPOTENCY_TTL_SECONDS, type IdempotentResponse } from '../../domain/emails/idempotency';
import { keys } from './keys';
import { isConditionFailure, type Table, type TransactItem } from './table';

export interface IdempotencyRecord extends IdempotentResponse {
  fingerprint: string;
  created_at: string;
}

/** A stored record as read; null when absent or expired (emulators do not expire items). */
export function toIdempotencyRecord(item: Record<string, unknown> | undefined, now: Date): IdempotencyRecord | null {
  if (!item || (typeof item.ttl === 'number' && item.ttl < now.getTime() / 1000)) return null;
  return { fingerprint: item.fingerprint as string, status: item.status as number, body: item.body, created_at: item.created_at as string };
}

const keyHash = (key: string) => createHash('sha256').update(key).digest('hex');

/** The table key of an account's idempotency record. */
export const idempotencyKeyOf = (accountId: string, key: string) => keys.idempotency(accountId, keyHash(key));

export class IdempotencyStore {
  constructor(private readonly table: Table) {}

  key(accountId: string, key: string) {
    return idempotencyKeyOf(accountId, key);
  }

  async get(accountId: string, key: string, now: Date): Promise<IdempotencyRecord | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: this.key(accountId, key), ConsistentRead: true }),
    );
    return toIdempotencyRecord(result.Item, now);
  }

  /** The Put for a transaction; fails its condition when a live record exists. */
  putItem(accountId: string, key: string, record: IdempotencyRecord, now: Date): { Put: NonNullable<TransactItem['Put']> } {
    return {
      Put: {
        TableName: this.table.name,
        Item: {
          ...this.key(accountId, key),
          type: 'idempotency',
          ...record,
          ttl: Math.floor(now.getTime() / 1000) + IDEMPOTENCY_TTL_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(PK) OR #ttl < :now',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':now': Math.floor(now.getTime() / 1000) },
      },
    };
  }

  /** Overwrites the record (its owner storing the answer over the pending record it put first). */
  async replace(accountId: string, key: string, record: IdempotencyRecord, now: Date): Promise<void> {
    const {
      ConditionExpression: _condition,
      ExpressionAttributeNames: _names,
      ExpressionAttributeValues: _values,
      ...put
    } = this.putItem(accountId, key, record, now).Put;
    await this.table.client.send(new PutCommand(put));
  }

  /** Stores a record on its own; false when a live one exists already. */
  async put(accountId: string, key: string, record: IdempotencyRecord, now: Date): Promise<boolean> {
    try {
      await this.table.client.send(new PutCommand(this.putItem(accountId, key, record, now).Put));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
