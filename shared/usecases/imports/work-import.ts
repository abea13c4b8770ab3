/**
 * One request's work on an import: stretches of the current resource, each saved (report part, progress,
 * totals) before the next, until everything is done, the time budget is spent, or the provider stops
 * us (rate limit: the answer carries retry_after_seconds; unreadable resource: recorded in errors and
 * the import moves on). Exactly where it stopped is where the next request resumes.
 */
import { ConflictError } from '../../domain/errors';
import { addPartTotals, type ImportHead } from '../../domain/imports/import';
import { emptyPart, statusOf, type ImportStatus, type ReportPart } from '../../domain/imports/report';
import { ProviderError } from '../../ports/provider-source';
import type { ImportResource } from '../../domain/imports/source';
import { importDomainsStretch } from './import-domains';
import { importSuppressionsStretch } from './import-suppressions';
import { importTemplatesStretch } from './import-templates';
import { importWebhooksStretch } from './import-webhooks';
import { nextResource, outOfTime, type StretchContext, type StretchResult, type StretchWorker } from './stretch';

const WORKERS: Record<ImportResource, StretchWorker> = {
  domains: importDomainsStretch,
  webhooks: importWebhooksStretch,
  templates: importTemplatesStretch,
  suppressions: importSuppressionsStretch,
};

export interface WorkOutcome {
  /** Stretches saved by this request. */
  stretches: number;
  retryAfterSeconds: number | null;
  /** A provider failure that ended the request before any stretch was saved (the caller answers it as an error). */
  failedBeforeWork: ProviderError | null;
}

/** The answer to a request that ran past its lease: another request took the import over. */
export function claimLost(): ConflictError {
  return new ConflictError(
    'Another request took over this import (this one ran past its lease); continue with the latest next_cursor (GET /migrations/{id}).',
  );
}

function isEmpty(part: ReportPart): boolean {
  return (
    part.domains.items.length +
      part.webhooks.items.length +
      part.templates.items.length +
      part.suppressions.totals.found +
      part.errors.length ===
    0
  );
}

/** Works the claimed import `ctx.head` (claimed with `leaseUntilMs`) until done, out of time, or stopped. */
export async function workImport(ctx: StretchContext, leaseUntilMs: number): Promise<WorkOutcome> {
  const { deps, head } = ctx;
  const max = deps.importSettings.maxStretchesPerRequest;
  let stretches = 0;
  let retryAfterSeconds: number | null = null;
  while (head.progress.resource < head.resources.length) {
    if (outOfTime(ctx) || (max !== null && stretches >= max)) break;
    const resource = head.resources[head.progress.resource]!;
    let result: StretchResult;
    try {
      result = await WORKERS[resource](ctx);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      result = { part: emptyPart(), progress: head.progress, stop: error };
    }
    let { progress } = result;
    const part = result.part;
    const stop = result.stop;
    if (stop?.failure.kind === 'not_permitted') {
      part.errors.push({ resource, message: stop.message });
      progress = nextResource(head.progress);
    }
    const moved = JSON.stringify(progress) !== JSON.stringify(head.progress);
    if (moved || !isEmpty(part)) {
      const totals = addPartTotals(head.totals, part);
      const saved = await deps.imports.saveStretch(head, leaseUntilMs, { progress, totals, part }, deps.clock.now().toISOString());
      if (!saved) throw claimLost();
      stretches++;
    }
    if (stop && stop.failure.kind !== 'not_permitted') {
      if (stop.failure.kind === 'rate_limited') retryAfterSeconds = stop.failure.retryAfterSeconds;
      else if (stretches === 0) return { stretches, retryAfterSeconds: null, failedBeforeWork: stop };
      break;
    }
  }
  return { stretches, retryAfterSeconds, failedBeforeWork: null };
}

/** The status of the import after this request, from its whole report (every part merged). */
export function importStatus(head: ImportHead, report: ReportPart): { status: ImportStatus; hasMore: boolean } {
  const hasMore = head.progress.resource < head.resources.length;
  return { status: statusOf(report, hasMore, head.resources), hasMore };
}
