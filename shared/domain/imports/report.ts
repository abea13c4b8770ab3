/**
 * An import's report (spec, Imports): what one `POST /migrations` request did (a part), and the whole
 * import (every part merged, in request order). Pure: the use case builds parts, the store keeps them,
 * GET /migrations/{id} merges them.
 *
 * Totals add up across parts. Item lists are appended in the order they were worked, so a chain of
 * continuations merges to the same report as one long request over the same data.
 */
import type { ImportResource } from './source';
import type { DnsPlan } from './dns-plan';

export const IMPORT_STATUSES = ['completed', 'partial', 'failed', 'in_progress'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** imported; would_import (dry run); needs_attention (imported as a draft); skipped (already present); failed. */
export type ItemStatus = 'imported' | 'would_import' | 'needs_attention' | 'skipped' | 'failed';

export interface DomainItem {
  name: string;
  status: ItemStatus;
  domain_id: string | null;
  records: unknown[];
  dns_plan: DnsPlan | null;
  dashboard_url: string | null;
  message: string | null;
}

export interface WebhookItem {
  url: string;
  status: ItemStatus;
  webhook_id: string | null;
  enabled: boolean;
  /** Shown once, in the response of the request that created the endpoint; null everywhere else. */
  secret: string | null;
  events: string[];
  unmapped_events: string[];
  message: string | null;
}

export interface TemplateItem {
  source_id: string;
  name: string;
  alias: string;
  status: ItemStatus;
  template_id: string | null;
  published: boolean;
  variables: string[];
  notes: string[];
  message: string | null;
}

export interface ResourceError {
  resource: ImportResource;
  /** What could not be read (a list, a page), for people. */
  message: string;
}

export interface AttentionItem {
  resource: ImportResource;
  /** The domain name, webhook URL or template alias concerned. */
  item: string;
  message: string;
}

export interface CountTotals {
  found: number;
  imported: number;
  skipped: number;
  failed: number;
}

export interface TemplateTotals extends CountTotals {
  needs_attention: number;
}

/** Suppression counts: entries read, and what became of them (imported broken down by reason). */
export interface SuppressionCounts {
  found: number;
  imported: number;
  already_suppressed: number;
  skipped: number;
  failed: number;
  bounce: number;
  complaint: number;
  unsubscribe: number;
  manual: number;
  product_opt_out: number;
}

export function emptySuppressionCounts(): SuppressionCounts {
  return {
    found: 0,
    imported: 0,
    already_suppressed: 0,
    skipped: 0,
    failed: 0,
    bounce: 0,
    complaint: 0,
    unsubscribe: 0,
    manual: 0,
    product_opt_out: 0,
  };
}

export interface SuppressionReport {
  totals: SuppressionCounts;
  skipped_reasons: Record<string, number>;
  estimated: boolean;
}

/** What one request adds to the import's report. */
export interface ReportPart {
  domains: { totals: CountTotals; items: DomainItem[] };
  webhooks: { totals: CountTotals; items: WebhookItem[] };
  templates: { totals: TemplateTotals; items: TemplateItem[] };
  suppressions: SuppressionReport;
  errors: ResourceError[];
  attention: AttentionItem[];
}

export function emptyCounts(): CountTotals {
  return { found: 0, imported: 0, skipped: 0, failed: 0 };
}

export function emptyPart(): ReportPart {
  return {
    domains: { totals: emptyCounts(), items: [] },
    webhooks: { totals: emptyCounts(), items: [] },
    templates: { totals: { ...emptyCounts(), needs_attention: 0 }, items: [] },
    suppressions: { totals: emptySuppressionCounts(), skipped_reasons: {}, estimated: false },
    errors: [],
    attention: [],
  };
}

/** `totals` counting one more domain or webhook item: imported (or would be), skipped, or failed. */
export function countItem(totals: CountTotals, status: ItemStatus): void {
  totals.found++;
  if (status === 'imported' || status === 'would_import') totals.imported++;
  else if (status === 'skipped') totals.skipped++;
  else totals.failed++;
}

/** Field-by-field sum of two count objects. */
export function addCounts<T extends object>(a: T, b: T): T {
  const out = { ...a } as Record<string, number>;
  for (const [key, value] of Object.entries(b as Record<string, number>)) out[key] = (out[key] ?? 0) + value;
  return out as T;
}

/** `parts` in request order, merged into one. */
export function mergeParts(parts: readonly ReportPart[]): ReportPart {
  const merged = emptyPart();
  for (const part of parts) {
    merged.domains = {
      totals: addCounts(merged.domains.totals, part.domains.totals),
      items: [...merged.domains.items, ...part.domains.items],
    };
    merged.webhooks = {
      totals: addCounts(merged.webhooks.totals, part.webhooks.totals),
      items: [...merged.webhooks.items, ...part.webhooks.items],
    };
    merged.templates = {
      totals: addCounts(merged.templates.totals, part.templates.totals),
      items: [...merged.templates.items, ...part.templates.items],
    };
    merged.suppressions = {
      totals: addCounts(merged.suppressions.totals, part.suppressions.totals),
      skipped_reasons: addCounts(merged.suppressions.skipped_reasons, part.suppressions.skipped_reasons),
      estimated: merged.suppressions.estimated || part.suppressions.estimated,
    };
    merged.errors.push(...part.errors);
    merged.attention.push(...part.attention);
  }
  return merged;
}

/**
 * The import's status: in_progress while there is more to do; otherwise failed when nothing could be
 * read or every item failed, partial when some resource could not be read or some item failed,
 * completed when everything found was imported, skipped or left for attention.
 */
export function statusOf(report: ReportPart, hasMore: boolean, resources: readonly ImportResource[]): ImportStatus {
  if (hasMore) return 'in_progress';
  const failedItems =
    report.domains.totals.failed + report.webhooks.totals.failed + report.templates.totals.failed + report.suppressions.totals.failed;
  const found =
    report.domains.totals.found + report.webhooks.totals.found + report.templates.totals.found + report.suppressions.totals.found;
  const unreadable = new Set(report.errors.map((error) => error.resource));
  if (resources.every((resource) => unreadable.has(resource))) return 'failed';
  if (found > 0 && failedItems === found) return 'failed';
  if (unreadable.size > 0 || failedItems > 0) return 'partial';
  return 'completed';
}
