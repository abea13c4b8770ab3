/**
 * Exports an erasure deletes (docs/erasure.md, docs/exports.md): an export whose files name the address
 * (found by its address references, written as each part file is), or any export made before those
 * references existed (it cannot tell: deleted whole). The export's record goes, its running slot is given
 * back, and its files: every part of every kind that exists, found by asking for part 1, 2, ... until
 * one is missing (parts are written in order), so a part written by a request still working the export
 * when its record was read goes too.
 */
import { EXPORT_KINDS, partKey } from '../../domain/exports/export';
import type { ErasedCounts } from '../../domain/privacy/erasure';
import { mapBounded } from '../../lib/concurrency';
import type { ErasureDeps } from './deps';

type Deps = Pick<ErasureDeps, 'erasures' | 'blobs' | 'exports'>;

/** The account and export of an export record's key (`EXPORT#<acc>#<exp>` / `HEAD`), or null. */
export function exportOfKey(key: { PK: string; SK: string }): { accountId: string; exportId: string } | null {
  const match = /^EXPORT#([^#]+)#(exp_[^#]+)$/.exec(key.PK);
  return match && key.SK === 'HEAD' ? { accountId: match[1]!, exportId: match[2]! } : null;
}

/** Deletes one kind's part files (and the CSV twins of suppressions) from part 1 until one is missing; how many. */
async function deleteKindParts(
  deps: Pick<Deps, 'blobs'>,
  accountId: string,
  exportId: string,
  kind: (typeof EXPORT_KINDS)[number],
): Promise<number> {
  let deleted = 0;
  for (let part = 1; ; part++) {
    const ndjson = partKey(accountId, exportId, kind, part, 'ndjson');
    if ((await deps.blobs.head(ndjson)) === null) return deleted;
    await deps.blobs.delete(ndjson);
    deleted++;
    if (kind !== 'suppressions') continue;
    const csv = partKey(accountId, exportId, kind, part, 'csv');
    if ((await deps.blobs.head(csv)) === null) continue;
    await deps.blobs.delete(csv);
    deleted++;
  }
}

/** Deletes an export whole, by its record's key: the record (counted once, by whoever deleted it), its running slot, its files. */
export async function eraseExport(deps: Deps, key: { PK: string; SK: string }, counts: ErasedCounts): Promise<void> {
  const named = exportOfKey(key);
  if (!named) return;
  const { accountId, exportId } = named;
  const old = await deps.erasures.deleteRecord(key);
  if (old !== null) {
    counts.exports += 1;
    await deps.exports.release(accountId, exportId);
  }
  const files = await mapBounded(EXPORT_KINDS, 4, (kind) => deleteKindParts(deps, accountId, exportId, kind));
  counts.objects += files.reduce((sum, n) => sum + n, 0);
}

/** The account's exports made before their files' addresses were referenced, deleted whole. */
export async function eraseUnindexedExports(deps: Deps, accountId: string, counts: ErasedCounts): Promise<void> {
  const found = await deps.exports.unindexed(accountId);
  await mapBounded(found, 4, (key) => eraseExport(deps, key, counts));
}
