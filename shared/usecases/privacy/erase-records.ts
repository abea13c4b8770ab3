/**
 * One stretch of an erasure (docs/erasure.md, "Resuming"): a page of the address's references, each
 * record they point at deleted with its objects in the bucket, then the references themselves, then the
 * counts saved. A reference whose record is gone already (expired, erased by a concurrent stretch, never
 * written) counts nothing, so stretches may overlap or repeat: each record is counted once.
 */
import type { AddressRef, AddressRefKind } from '../../adapters/store/erasures';
import { noneErased, type ErasedCounts, type ErasedKind } from '../../domain/privacy/erasure';
import { receivedEmailObjects, sentEmailObjects } from '../../domain/privacy/record-objects';
import { mapBounded } from '../../lib/concurrency';
import { REFS_PER_STRETCH, type ErasureDeps } from './deps';
import { eraseExport } from './erase-exports';

const COUNTED_AS: Record<AddressRefKind, ErasedKind> = {
  email: 'emails',
  received_email: 'received_emails',
  webhook_delivery: 'webhook_deliveries',
  idempotency_record: 'idempotency_records',
  automation_run: 'automation_runs',
  export: 'exports',
};

/** Deletes in flight at once within a stretch. */
export const CONCURRENCY = 8;

/** The objects a deleted record pointed at, by kind. */
function objectsOf(kind: AddressRefKind, old: Record<string, unknown>): string[] {
  if (kind === 'email') return sentEmailObjects(old);
  if (kind === 'received_email') return receivedEmailObjects(old);
  return [];
}

/** Deletes the objects that exist; how many there were. */
export async function deleteObjects(deps: Pick<ErasureDeps, 'blobs'>, blobKeys: readonly string[]): Promise<number> {
  const existed = await mapBounded([...new Set(blobKeys)], CONCURRENCY, async (key) => {
    if ((await deps.blobs.head(key)) === null) return 0;
    await deps.blobs.delete(key);
    return 1;
  });
  return existed.reduce<number>((sum, n) => sum + n, 0);
}

type StretchDeps = Pick<ErasureDeps, 'erasures' | 'blobs' | 'exports'>;

async function eraseRef(deps: StretchDeps, ref: AddressRef, counts: ErasedCounts): Promise<void> {
  if (ref.kind === 'export') return eraseExport(deps, ref.target, counts);
  const old = await deps.erasures.deleteRecord(ref.target);
  if (old === null) return;
  counts[COUNTED_AS[ref.kind]] += 1;
  const objects = await deleteObjects(deps, objectsOf(ref.kind, old));
  counts.objects += objects;
}

/** One stretch: what it removed, and whether references were left when it began (false: the erasure is done). */
export async function eraseStretch(deps: StretchDeps, accountId: string, hash: string): Promise<{ removed: ErasedCounts; found: number }> {
  const refs = await deps.erasures.refsPage(accountId, hash, REFS_PER_STRETCH);
  const removed = noneErased();
  await mapBounded(refs, CONCURRENCY, (ref) => eraseRef(deps, ref, removed));
  if (refs.length) await deps.erasures.deleteRefs(refs);
  return { removed, found: refs.length };
}
