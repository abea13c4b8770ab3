/**
 * The due index (GSI2, keys only): every item that is waiting for something to happen (an email
 * queued, scheduled, being sent or sent without an outcome; a pending webhook delivery; an automation
 * run's step; a domain the mail provider is still verifying) carries
 *
 *   GSI2PK  DUE#<shard>                       shard = hash of the item's id, DUE_SHARDS of them
 *   GSI2SK  <due time, ISO 8601>#<kind>#<id>
 *
 * set by the same write that moves it into that state and removed by the write that makes it final,
 * so the index holds only unfinished work (sparse). The reconciler queries each shard for keys with a
 * due time before now: work that should have moved and did not. Sharded because every email of every
 * account passes through it (a single partition would take every state change of the service);
 * DUE_SHARDS partitions of 1,000 writes/s each carry well over 10,000 emails/s.
 */
import { createHash } from 'node:crypto';

/** Changing this strands items in shards the reconciler no longer reads: only ever raise it with a backfill. */
export const DUE_SHARDS = 32;

/**
 * EMAIL: an email; DELIVERY: a webhook delivery; RUN: an automation run's current step (docs/automations.md);
 * DOMAIN: a domain whose DNS checked out while the mail provider still verifies it (docs/domains.md).
 */
export type DueKind = 'EMAIL' | 'DELIVERY' | 'RUN' | 'DOMAIN';

export const DUE_KINDS: readonly DueKind[] = ['EMAIL', 'DELIVERY', 'RUN', 'DOMAIN'];

export const DUE_INDEX = 'GSI2';

export function dueShard(id: string): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0) % DUE_SHARDS;
}

export const duePartition = (shard: number) => `DUE#${shard}`;

/** The index attributes of an item due at `dueAt` (epoch ms). */
export function dueAttributes(kind: DueKind, id: string, dueAt: number): { GSI2PK: string; GSI2SK: string } {
  return { GSI2PK: duePartition(dueShard(id)), GSI2SK: `${new Date(dueAt).toISOString()}#${kind}#${id}` };
}

/** Upper bound of sort keys due at or before `now` (exclusive of later times). */
export const dueBefore = (now: number) => `${new Date(now).toISOString()}#~`;

/**
 * `SET GSI2PK = :duepk, GSI2SK = :duesk` with its values, to splice into an UpdateExpression's SET clause.
 */
export function setDue(kind: DueKind, id: string, dueAt: number): { set: string; values: Record<string, string> } {
  const { GSI2PK, GSI2SK } = dueAttributes(kind, id, dueAt);
  return { set: 'GSI2PK = :duepk, GSI2SK = :duesk', values: { ':duepk': GSI2PK, ':duesk': GSI2SK } };
}

/** The REMOVE clause part that takes an item out of the due index (it is final). */
export const REMOVE_DUE = 'GSI2PK, GSI2SK';
