/**
 * What the erasure use cases need (docs/erasure.md): the erasures' part of the table (the repository in
 * shared/adapters/store/erasures.ts, or an in-memory fake in the unit tests), the exports', the mail bucket,
 * the clock, and the request's time budget.
 */
import type { ErasureRepository } from '../../adapters/store/erasures';
import type { ExportRepository } from '../../adapters/store/exports';
import type { BlobStore } from '../../ports/blobs';
import type { Clock } from '../../ports/clock';

export type ErasureStore = Pick<
  ErasureRepository,
  'create' | 'get' | 'record' | 'refsPage' | 'deleteRecord' | 'deleteRefs' | 'listEntries' | 'replaceEntriesByHash'
>;

export interface ErasureDeps {
  erasures: ErasureStore;
  blobs: Pick<BlobStore, 'head' | 'delete'>;
  /** Exports an erasure deletes: their running slot given back, and those made before their addresses were referenced. */
  exports: Pick<ExportRepository, 'release' | 'unindexed'>;
  clock: Clock;
  /** How long one request works before it answers (the rest: the next GET). Default ERASURE_BUDGET_MS. */
  erasureBudgetMs?: number;
}

/** One request's work: well inside API Gateway's 30 s, as imports' (MIGRATION_REQUEST_BUDGET_MS). */
export const ERASURE_BUDGET_MS = 20_000;

/** References worked between two saves of the counts. */
export const REFS_PER_STRETCH = 25;
