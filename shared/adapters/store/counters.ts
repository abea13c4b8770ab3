/**
 * Per-account counters of resources with a cap (domains, webhook endpoints): transaction items that
 * take a slot below the limit (a conditional ADD, so concurrent creates never exceed it) or give one back.
 */
import { keys } from './keys';
import type { Table, TransactItem } from './table';

export function takeSlotItem(table: Table, accountId: string, counter: string, limit: number): TransactItem {
  return {
    Update: {
      TableName: table.name,
      Key: keys.counter(accountId, counter),
      UpdateExpression: 'ADD #count :one',
      // A limit of 0 (a plan without the resource) must refuse even before the counter exists.
      ConditionExpression: limit > 0 ? 'attribute_not_exists(#count) OR #count < :limit' : '#count < :limit',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':limit': limit },
    },
  };
}

export function freeSlotItem(table: Table, accountId: string, counter: string): TransactItem {
  return {
    Update: {
      TableName: table.name,
      Key: keys.counter(accountId, counter),
      UpdateExpression: 'ADD #count :minus',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':minus': -1 },
    },
  };
}
