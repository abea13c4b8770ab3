/**
 * The reconciler's inbound pass: raw messages an MX listener stored and never queued are deleted.
 *
 * The listener writes a pending marker beside each raw message it stores, before it queues it (shared/doors/mx/mx-server.ts);
 * when storing or queueing fails it discards the message itself. What is left pending past its bound
 * (UNCLAIMED_RAW_BOUND_MS, past the longest a queue message lives: a listener that crashed, or lost the
 * table, between storing and queueing; the sender had no 250 and sends again) is discarded here, and so is
 * the object of any discarded marker whose deletion did not finish. A worker that gets a message of a
 * discarded raw message drops it (shared/usecases/inbound/process-inbound.ts); one that claimed it first
 * keeps it, and then this pass leaves it alone: both go through one conditional write on the marker.
 */
import { mapBounded } from '../../lib/concurrency';
import type { BlobStore } from '../../ports/blobs';
import type { Clock } from '../../ports/clock';
import type { InboundRawMarkerRepository } from '../../adapters/store/inbound-raw-markers';

export interface UnqueuedInboundDeps {
  inboundRawMarkers: Pick<InboundRawMarkerRepository, 'pastDue' | 'discardDue' | 'forget'>;
  blobs: Pick<BlobStore, 'delete'>;
  clock: Clock;
}

export interface UnqueuedInboundReport {
  /** Raw inbound messages deleted because no queue message will ever be recorded from them. */
  discarded_inbound: number;
}

export const NO_UNQUEUED_INBOUND_WORK: UnqueuedInboundReport = { discarded_inbound: 0 };

/** Markers read per index shard per pass (a backlog drains over a few passes). */
const PER_SHARD = 50;

export async function discardUnqueuedInbound(
  deps: UnqueuedInboundDeps,
  log: (message: string, error: unknown) => void,
): Promise<UnqueuedInboundReport & { errors: number }> {
  const now = deps.clock.now().getTime();
  const rawKeys = await deps.inboundRawMarkers.pastDue(now, PER_SHARD);
  let discarded = 0;
  let errors = 0;
  await mapBounded(rawKeys, 8, async (rawKey) => {
    try {
      if (await discardOne(deps, rawKey, now)) discarded++;
    } catch (error) {
      errors++;
      log(`reconcile: discarding the unqueued inbound message ${rawKey} failed`, error);
    }
  });
  return { discarded_inbound: discarded, errors };
}

/** True when the object was deleted now; false when a worker claimed it or the marker is gone. */
async function discardOne(deps: UnqueuedInboundDeps, rawKey: string, now: number): Promise<boolean> {
  // Pending past its bound (unless a listener or a worker gets to it first), or discarded with its object left.
  if (!(await deps.inboundRawMarkers.discardDue(rawKey, now))) return false;
  await deps.blobs.delete(rawKey);
  await deps.inboundRawMarkers.forget(rawKey);
  return true;
}
