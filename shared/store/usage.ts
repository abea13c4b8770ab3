/**
 * Usage counters, reserved inside the send's transaction with a conditional ADD, so N concurrent
 * sends at the edge of a limit never overshoot it. A failed hand-off releases its reservation.
 */
import type { UsageReservation } from '../domain/accounts/limits';
import { keys } from './keys';
import type { Table } from './table';

type TransactItem = Record<string, any>;

export function reserveItem(table: Table, accountId: string, reservation: UsageReservation, count: number): TransactItem {
  const base = {
    TableName: table.name,
    Key: keys.usage(accountId, reservation.scope, reservation.period, reservation.periodValue),
    UpdateExpression: 'ADD #count :n SET #ttl = :ttl',
    ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
  };
  if (reservation.limit === null) {
    return { Update: { ...base, ExpressionAttributeValues: { ':n': count, ':ttl': reservation.expiresAt } } };
  }
  return {
    Update: {
      ...base,
      ConditionExpression: 'attribute_not_exists(#count) OR #count <= :max',
      ExpressionAttributeValues: { ':n': count, ':ttl': reservation.expiresAt, ':max': reservation.limit - count },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** Which counter a reservation went to: all a release needs. */
export type ReservedCounter = Pick<UsageReservation, 'scope' | 'period' | 'periodValue'>;

export function releaseItem(table: Table, accountId: string, reservation: ReservedCounter, count: number): TransactItem {
  return {
    Update: {
      TableName: table.name,
      Key: keys.usage(accountId, reservation.scope, reservation.period, reservation.periodValue),
      UpdateExpression: 'ADD #count :minus',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':minus': -count },
    },
  };
}

/** The count an item had when its condition failed (ReturnValuesOnConditionCheckFailure), if returned. */
export function countAtFailure(reason: { Item?: Record<string, any> } | undefined): number | undefined {
  const raw = reason?.Item?.count;
  if (raw === undefined) return undefined;
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'object' && raw !== null && 'N' in raw) return Number(raw.N);
  return undefined;
}

/** The usage counters of one table, as transaction items for the send path. */
export class UsageLedger {
  constructor(private readonly table: Table) {}

  reserve(accountId: string, reservations: UsageReservation[], count: number): TransactItem[] {
    return reservations.map((reservation) => reserveItem(this.table, accountId, reservation, count));
  }

  release(accountId: string, reservations: ReservedCounter[], count: number): TransactItem[] {
    return reservations.map((reservation) => releaseItem(this.table, accountId, reservation, count));
  }
}
