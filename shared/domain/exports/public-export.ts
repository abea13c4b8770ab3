/**
 * The export as the API shows it (GET /exports/{id}, POST /exports; the list shows the summary): its
 * status, the counts written per kind and, once completed, each file with its signed download link.
 */
import { EXPORT_KINDS, type ExportFormat, type ExportHead, type ExportKind } from './export';

export interface ExportFileLink {
  kind: ExportKind;
  format: ExportFormat;
  part: number;
  /** Bytes of the file. */
  size: number;
  download_url: string;
}

export function toExportSummary(head: ExportHead) {
  return {
    object: 'export' as const,
    id: head.id,
    status: head.status,
    kinds: Object.fromEntries(
      EXPORT_KINDS.map((kind, index) => [kind, { records: head.totals[kind].records, done: head.progress.kind > index }]),
    ) as Record<ExportKind, { records: number; done: boolean }>,
    created_at: head.created_at,
    updated_at: head.updated_at,
    completed_at: head.completed_at,
    expires_at: head.expires_at,
  };
}

export function toPublicExport(head: ExportHead, files: ExportFileLink[], linksExpireAt: string | null) {
  return { ...toExportSummary(head), files, links_expire_at: linksExpireAt };
}

export type PublicExport = ReturnType<typeof toPublicExport>;
