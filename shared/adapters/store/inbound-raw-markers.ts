/**
 * One marker per raw inbound message (`inbound/raw/<id>.eml`): whether it was handed to the inbound
 * queue, so a raw message stored by an MX listener that then could not queue it (a queue failure, a crash
 * in between) is found and deleted instead of left in the bucket for ever (docs/inbound.md, "Nothing
 * left behind").
 *
 *   PK INBOUNDRAW#<raw key>  SK INBOUNDRAW  status, raw_key, created_at, ttl
 *   GSI2PK INBOUNDRAW#<shard>  GSI2SK <due ISO>#<raw key>   while it may need deleting (sparse)
 *
 *   pending    written as the listener's DATA starts, beside the raw message's PUT: due UNCLAIMED_RAW_BOUND_MS
 *              later, past the longest a queue message lives, so only a message the queue never took (its
 *              listener died between storing and queueing it) is ever deleted from it, never one a worker
 *              may still record
 *   queued     (listeners before 2026-11-27 marked a message queued before their 250: out of the index)
 *   claimed    an inbound worker is recording it (from anything but discarded): out of the index
 *   discarded  not queued (the listener gave up, or the reconciler found it pending past due); the object
 *              is deleted, then the marker leaves the index. Workers given a message of it drop it: the
 *              sender had no 250 and sends it again (a queue call that failed after SQS took the message).
 *
 * Every change is one conditional write on the marker, so a worker's claim and a discard racing each
 * other cannot both win: a message is either recorded from an object that stays, or dropped.
 * Markers expire by TTL after MARKER_TTL_SECONDS, longer than any queue message (14 days in the DLQ) lives.
 * Their own index partitions (not the due index's DUE#<n>), so the reconciler's due-work pass never reads them.
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { pastDueSortKeys } from './due-work';
import { keys } from './keys';
import { isConditionFailure, itemOfRefusedWrite, updateIfCondition, type Table } from './table';

export type RawMarkerStatus = 'pending' | 'queued' | 'claimed' | 'discarded';

export interface RawMarker {
  raw_key: string;
  status: RawMarkerStatus;
  created_at: string;
}

/** Index partitions of the markers that may need deleting (a hash of the raw key picks one). */
export const RAW_MARKER_SHARDS = 8;
/** A marker outlives every queue message that can name its raw message (SQS keeps at most 14 days). */
export const MARKER_TTL_SECONDS = 30 * 24 * 3600;

const partition = (shard: number) => `INBOUNDRAW#${shard}`;
const shardOf = (rawKey: string) => createHash('sha256').update(rawKey).digest().readUInt32BE(0) % RAW_MARKER_SHARDS;
export const markerDueKey = (rawKey: string, dueAt: number) => ({
  GSI2PK: partition(shardOf(rawKey)),
  GSI2SK: `${new Date(dueAt).toISOString()}#${rawKey}`,
});

export class InboundRawMarkerRepository {
  constructor(private readonly table: Table) {}

  /** As the raw message is stored (before its queue message): pending, due for deletion at `dueAt` unless claimed by then. */
  async begin(rawKey: string, now: Date, dueAt: number): Promise<void> {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...keys.inboundRawMarker(rawKey),
          type: 'inbound_raw',
          raw_key: rawKey,
          status: 'pending',
          created_at: now.toISOString(),
          ttl: Math.floor(now.getTime() / 1000) + MARKER_TTL_SECONDS,
          ...markerDueKey(rawKey, dueAt),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  /** Not queued (the listener's, before its 451): discarded (only from pending), due at once for the deletion of its object. False when it is not pending. */
  async discard(rawKey: string, now: number): Promise<boolean> {
    return this.discardFrom(['pending'], rawKey, now);
  }

  /**
   * A message refused (or never arrived whole) after its marker was written and before anything was stored:
   * discarded and out of the index at once, nothing to delete (only from pending). False when it is not pending.
   */
  async discardUnstored(rawKey: string): Promise<boolean> {
    return (await this.transition(rawKey, 'discarded', ['pending'], { remove: 'GSI2PK, GSI2SK' })) === true;
  }

  /**
   * The reconciler's, on a marker found past due: discarded (from pending), or already so with its object
   * still to delete: true, the object is to be deleted. False when a worker claimed it meanwhile or there is
   * no marker: one conditional write, no read first.
   */
  async discardDue(rawKey: string, now: number): Promise<boolean> {
    return this.discardFrom(['pending', 'discarded'], rawKey, now);
  }

  /** The object of a discarded marker is deleted: out of the index (the marker stays, for late workers, until its TTL). */
  async forget(rawKey: string): Promise<void> {
    await this.transition(rawKey, 'discarded', ['discarded'], { remove: 'GSI2PK, GSI2SK' });
  }

  /**
   * A worker is about to record a message of it: `claimed` (it may: the object stays), or `discarded`
   * (it must drop the message). A message whose listener wrote no marker (queued before markers
   * existed) is claimed too: the marker is written then.
   */
  async claim(rawKey: string, now: Date): Promise<'claimed' | 'discarded'> {
    const claimed = await updateIfCondition(this.table, {
      Key: keys.inboundRawMarker(rawKey),
      UpdateExpression:
        'SET #status = :claimed, #type = :type, raw_key = :raw_key, created_at = if_not_exists(created_at, :now), #ttl = if_not_exists(#ttl, :ttl) REMOVE GSI2PK, GSI2SK',
      ConditionExpression: 'attribute_not_exists(PK) OR #status <> :discarded',
      ExpressionAttributeNames: { '#status': 'status', '#type': 'type', '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':claimed': 'claimed',
        ':discarded': 'discarded',
        ':type': 'inbound_raw',
        ':raw_key': rawKey,
        ':now': now.toISOString(),
        ':ttl': Math.floor(now.getTime() / 1000) + MARKER_TTL_SECONDS,
      },
      ReturnValues: 'NONE',
    });
    return claimed ? 'claimed' : 'discarded';
  }

  /** The marker as stored (strongly consistent read), null when there is none. */
  async get(rawKey: string): Promise<RawMarker | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.inboundRawMarker(rawKey), ConsistentRead: true }),
    );
    const item = result.Item;
    return item ? { raw_key: item.raw_key, status: item.status, created_at: item.created_at } : null;
  }

  /** Raw keys of markers due before `now` (pending past their bound, or discarded with an object to delete), up to `perShard` per shard. */
  async pastDue(now: number, perShard: number): Promise<string[]> {
    const shards = Array.from({ length: RAW_MARKER_SHARDS }, (_, shard) => pastDueSortKeys(this.table, partition(shard), now, perShard));
    return (await Promise.all(shards)).flat().map((sortKey) => sortKey.slice(sortKey.indexOf('#') + 1));
  }

  private async discardFrom(from: RawMarkerStatus[], rawKey: string, now: number): Promise<boolean> {
    const due = markerDueKey(rawKey, now);
    return (
      (await this.transition(rawKey, 'discarded', from, {
        set: 'GSI2PK = :pk, GSI2SK = :sk',
        values: { ':pk': due.GSI2PK, ':sk': due.GSI2SK },
      })) === true
    );
  }

  /**
   * Sets `status` (and `update`) only while the marker is in one of `from`: true, or else the status it
   * has (as DynamoDB refused the write: no second read), null when there is no marker.
   */
  private async transition(
    rawKey: string,
    status: RawMarkerStatus,
    from: RawMarkerStatus[],
    update: { set?: string; remove?: string; values?: Record<string, string> },
  ): Promise<true | RawMarkerStatus | null> {
    const fromValues = Object.fromEntries(from.map((value, index) => [`:from${index}`, value]));
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.inboundRawMarker(rawKey),
          UpdateExpression: `SET #status = :status${update.set ? `, ${update.set}` : ''}${update.remove ? ` REMOVE ${update.remove}` : ''}`,
          ConditionExpression: `#status IN (${Object.keys(fromValues).join(', ')})`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': status, ...fromValues, ...update.values },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return (itemOfRefusedWrite(error)?.status as RawMarkerStatus | undefined) ?? null;
      throw error;
    }
  }
}
