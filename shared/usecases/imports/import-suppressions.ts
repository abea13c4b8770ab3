/**
 * Suppressions of an import (spec rules 1-3): the provider's lists are walked in precedence order
 * (bounces and complaints before unsubscribes: the adapters order them), one page per stretch, so up to
 * 500,000 entries go through with one page in memory. Each entry is classified (suppression-rules.ts):
 * a suppression on the account-wide list (conditional put: an address already there keeps its record
 * and counts as already_suppressed, which is how a bounce imported from an earlier list wins over a
 * later unsubscribe), a product opt-out (scoped opt-outs), or skipped with a reason (blocks, temporary
 * failures, invalid addresses).
 *
 * Entries carry `imported_by` (this import and list): when a crashed request's page is worked again,
 * the entries it had already written count as imported, exactly as if the crash had not happened.
 *
 * A dry run reads only the first page of each list, looks the addresses up (one batch read) instead of
 * writing, and marks the counts estimated when a list has more pages (spec: dry_run).
 */
import { emptyPart, type ReportPart } from '../../domain/imports/report';
import { ProviderError } from '../../ports/provider-source';
import type { SourcePage, SourceSuppression, SuppressionListRef } from '../../domain/imports/source';
import {
  classifySuppression,
  countSuppression,
  type SuppressionDecision,
  type SuppressionWriteOutcome,
} from '../../domain/imports/suppression-rules';
import { newId } from '../../domain/ids';
import { MAX_SUPPRESSIONS_PER_IMPORT } from './deps';
import { afterEntries, currentPage, nextResource, outOfTime, type StretchContext, type StretchResult } from './stretch';

/**
 * Entries written between two looks at the request's deadline: a page (up to 1,000 entries) is cut at
 * the first chunk that ends past it, so a slow store cannot carry a request past the function's timeout
 * (a chunk's suppressions are one transaction and its opt-outs another; the budget leaves ~9 s).
 */
export const SUPPRESSION_WRITE_CHUNK = 100;

/**
 * Writes a chunk's entries as their rules say; what the store answered for each, in order (a skip is never
 * written). The suppressions go in together, and the product opt-outs (each repository's addMany: one
 * transaction for up to 100).
 */
async function writeChunk(ctx: StretchContext, list: SuppressionListRef, rules: SuppressionDecision[]): Promise<SuppressionWriteOutcome[]> {
  const { deps, principal, head } = ctx;
  const accountId = principal.account.id;
  const now = deps.clock.now();
  const suppress = rules.flatMap((rule, index) => (rule.action === 'suppress' ? [{ rule, index }] : []));
  const outcomes: SuppressionWriteOutcome[] = rules.map(() => 'imported');
  const added = await deps.suppressions.addMany(
    suppress.map(({ rule }) => ({
      id: newId('sup', now.getTime()),
      account_id: accountId,
      email: rule.email,
      scope: 'account' as const,
      tenant: null,
      reason: rule.reason,
      created_at: now.toISOString(),
      imported_by: { migration: head.id, list: list.id },
    })),
  );
  suppress.forEach(({ index }, position) => {
    const { suppression, created } = added[position]!;
    const ours = suppression.imported_by?.migration === head.id && suppression.imported_by.list === list.id;
    outcomes[index] = created || ours ? 'imported' : 'already_suppressed';
  });
  const optOuts = rules.flatMap((rule, index) => (rule.action === 'opt_out' ? [{ rule, index }] : []));
  const recorded = await deps.categoryOptOuts.addMany(
    optOuts.map(({ rule }) => ({
      account_id: accountId,
      tenant: null,
      email: rule.email,
      category: rule.category,
      created_at: now.toISOString(),
    })),
  );
  optOuts.forEach(({ index }, position) => {
    outcomes[index] = recorded[position]!.created ? 'imported' : 'already_suppressed';
  });
  return outcomes;
}

/** Dry run: what each entry would become, from one batch lookup of the page's addresses. */
async function preview(ctx: StretchContext, entries: SourceSuppression[], part: ReportPart): Promise<void> {
  const { deps, principal } = ctx;
  const rules = entries.map((entry) => classifySuppression(entry));
  const suppress = rules.flatMap((rule) => (rule.action === 'suppress' ? [rule.email] : []));
  const present = new Set(suppress.length ? await deps.suppressions.findSuppressed(principal.account.id, null, suppress) : []);
  for (const rule of rules) {
    part.suppressions = countSuppression(
      part.suppressions,
      rule,
      rule.action === 'suppress' && present.has(rule.email) ? 'already_suppressed' : 'imported',
    );
  }
}

export async function importSuppressionsStretch(ctx: StretchContext): Promise<StretchResult> {
  const part = emptyPart();
  let progress = ctx.head.progress;
  if (progress.lists === null) {
    try {
      progress = { ...progress, lists: await ctx.source.suppressionLists(), list: 0, page: null, offset: 0 };
    } catch (error) {
      if (error instanceof ProviderError) return { part, progress, stop: error };
      throw error;
    }
    // Saved before the first page: the lists are read once per import.
    return { part, progress };
  }
  const cap = ctx.deps.importSettings.maxSuppressions ?? MAX_SUPPRESSIONS_PER_IMPORT;
  if (ctx.head.totals.suppressions.found >= cap) {
    part.errors.push({
      resource: 'suppressions',
      message: `An import reads at most ${cap.toLocaleString('en-US')} suppressions; the rest were not read. Import again to continue (what is here is skipped).`,
    });
    return { part, progress: nextResource(progress) };
  }
  const lists = progress.lists!;
  const nextList = () =>
    progress.list + 1 < lists.length ? { ...progress, list: progress.list + 1, page: null, offset: 0 } : nextResource(progress);
  if (progress.list >= lists.length) return { part, progress: nextResource(progress) };
  const list = lists[progress.list]!;
  let page: SourcePage<SourceSuppression>;
  try {
    page = await currentPage(ctx, 'suppressions', (token) => ctx.source.listSuppressions(list.id, token));
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.failure.kind === 'not_permitted') {
      part.errors.push({ resource: 'suppressions', message: `${list.label}: ${error.message}` });
      return { part, progress: nextList() };
    }
    return { part, progress, stop: error };
  }
  const entries = page.items.slice(progress.offset);
  if (ctx.head.dry_run) {
    await preview(ctx, entries, part);
    if (page.next !== null) part.suppressions.estimated = true;
    return { part, progress: nextList() };
  }
  let worked = 0;
  while (worked < entries.length) {
    if (worked > 0 && outOfTime(ctx)) break;
    const rules = entries.slice(worked, worked + SUPPRESSION_WRITE_CHUNK).map((entry) => classifySuppression(entry));
    const outcomes = await writeChunk(ctx, list, rules);
    rules.forEach((rule, index) => {
      part.suppressions = countSuppression(part.suppressions, rule, outcomes[index]);
    });
    worked += rules.length;
  }
  return { part, progress: afterEntries(progress, page, worked, nextList) };
}
