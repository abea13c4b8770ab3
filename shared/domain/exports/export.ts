/**
 * An account export (POST /exports; docs/exports.md): the record of where it stands. An export works the
 * kinds of data in a fixed order, each kind one list (or, for suppressions, the account's list then each
 * tenant's) read a page at a time through the repositories' list methods; a stretch of pages becomes one
 * part file per kind in the mail bucket, saved before the next begins, so a request that dies loses at
 * most the stretch it was in and the next one rewrites that part under the same key (no duplicates).
 */
import { ulid } from '../ids';

/** What an export holds, in the order it is worked (each kind one NDJSON file set; suppressions also CSV). */
export const EXPORT_KINDS = [
  'emails',
  'events',
  'domains',
  'webhooks',
  'suppressions',
  'templates',
  'automations',
  'received_emails',
] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export const EXPORT_STATUSES = ['running', 'completed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** How long an export (its record and its files) is kept: the bucket's lifecycle rule on EXPORT_PREFIX expires the files. */
export const EXPORT_KEPT_DAYS = 7;
/** How long each signed download link is valid (a new one with every GET). */
export const EXPORT_LINK_SECONDS = 3600;
/** Where every export's files are in the mail bucket (one lifecycle rule: infra/constructs/data.ts). */
export const EXPORT_PREFIX = 'exports/';

/** Where the next stretch starts: the kind (its index in EXPORT_KINDS) and the position in its list (null: its start). */
export interface ExportProgress {
  kind: number;
  position: ListPosition | null;
}

/**
 * A place in a kind's list: the repository's page cursor, and for suppressions the list being read (the
 * account's, tenant null, or a tenant's) and the tenants listing's cursor after that tenant.
 */
export interface ListPosition {
  cursor: string | null;
  tenant?: { id: string; external_id: string } | null;
  tenants_cursor?: string | null;
}

/** What has been written of one kind. */
export interface KindTotals {
  records: number;
  /** The size in bytes of each NDJSON part written, in order (its length is the number of parts). */
  part_sizes: number[];
  /** The size of each CSV part (suppressions only). */
  csv_part_sizes?: number[];
}

export interface ExportHead {
  id: string;
  account_id: string;
  status: ExportStatus;
  progress: ExportProgress;
  totals: Record<ExportKind, KindTotals>;
  /** Stretches saved so far (each one conditional on the count: a stale writer cannot save twice). */
  stretches: number;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** When the record and its files are deleted (created_at + EXPORT_KEPT_DAYS). */
  expires_at: string;
}

/** A new export id: `exp_` and a ULID (newest first by id). */
export function newExportId(nowMs: number): string {
  return `exp_${ulid(nowMs)}`;
}

export function isExportId(value: string): boolean {
  return /^exp_[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
}

const emptyTotals = (kind: ExportKind): KindTotals => ({
  records: 0,
  part_sizes: [],
  ...(kind === 'suppressions' ? { csv_part_sizes: [] } : {}),
});

export function newExportHead(accountId: string, nowMs: number): ExportHead {
  const at = new Date(nowMs).toISOString();
  return {
    id: newExportId(nowMs),
    account_id: accountId,
    status: 'running',
    progress: { kind: 0, position: null },
    totals: Object.fromEntries(EXPORT_KINDS.map((kind) => [kind, emptyTotals(kind)])) as Record<ExportKind, KindTotals>,
    stretches: 0,
    created_at: at,
    updated_at: at,
    completed_at: null,
    expires_at: new Date(nowMs + EXPORT_KEPT_DAYS * 86_400_000).toISOString(),
  };
}

/** Whether every kind has been worked to its end. */
export function isWorked(head: Pick<ExportHead, 'progress'>): boolean {
  return head.progress.kind >= EXPORT_KINDS.length;
}

export type ExportFormat = 'ndjson' | 'csv';

/** The bucket key of one part file: `exports/<acc>/<exp>/<kind>/part-00001.ndjson`. */
export function partKey(accountId: string, exportId: string, kind: ExportKind, part: number, format: ExportFormat): string {
  return `${EXPORT_PREFIX}${accountId}/${exportId}/${kind}/part-${String(part).padStart(5, '0')}.${format}`;
}
