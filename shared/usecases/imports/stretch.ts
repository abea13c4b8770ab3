/**
 * A stretch: the unit of import work between two saves. Each resource's worker reads one provider page
 * (kept for the next stretch of the same page), works up to a few of its entries from the saved offset,
 * and answers the report part for those entries and where the next stretch starts. A provider error
 * inside a stretch ends it at the entry that failed (`stop`), so what was done before is saved.
 */
import type { ImportHead, ImportProgress } from '../../domain/imports/import';
import type { ReportPart } from '../../domain/imports/report';
import { ProviderError, type ProviderSource } from '../../ports/provider-source';
import type { ImportResource, SourcePage } from '../../domain/imports/source';
import type { Principal } from '../access/principal';
import type { ImportDeps } from './deps';

export interface StretchContext {
  deps: ImportDeps;
  principal: Principal;
  head: ImportHead;
  source: ProviderSource;
  /** The last page read, by (resource, list, token): a page worked over several stretches is read once per request. */
  pages: Map<string, SourcePage<unknown>>;
  /** Secrets of the webhooks this request created (shown once, in this request's answer; never stored). */
  secrets: Map<string, string>;
  /** Stop before the next entry when this is past (the request's time budget). */
  deadlineMs: number;
}

export interface StretchResult {
  part: ReportPart;
  progress: ImportProgress;
  /** The provider error that ended the stretch early (the entries before it are in `part`). */
  stop?: ProviderError;
}

export type StretchWorker = (ctx: StretchContext) => Promise<StretchResult>;

/** Whether the request's time budget is spent (work stops at the next boundary: an entry, a hundred, a stretch). */
export function outOfTime(ctx: StretchContext): boolean {
  return ctx.deps.clock.now().getTime() >= ctx.deadlineMs;
}

/** A page of the current resource (and list), from the request's cache or the provider. */
export async function currentPage<T>(
  ctx: StretchContext,
  resource: ImportResource,
  read: (page: string | null) => Promise<SourcePage<T>>,
): Promise<SourcePage<T>> {
  const { progress } = ctx.head;
  const key = `${resource}\u0000${progress.list}\u0000${progress.page ?? ''}`;
  const cached = ctx.pages.get(key) as SourcePage<T> | undefined;
  if (cached) return cached;
  const page = await read(progress.page);
  ctx.pages.clear();
  ctx.pages.set(key, page);
  return page;
}

/** The next resource of the import, from its start. */
export function nextResource(progress: ImportProgress): ImportProgress {
  return { resource: progress.resource + 1, lists: null, list: 0, page: null, offset: 0 };
}

/**
 * Where to go after working `worked` more entries of `page`: further into the page, its next page, or
 * (the page was the last) `whenDone` (the next list or resource).
 */
export function afterEntries(
  progress: ImportProgress,
  page: SourcePage<unknown>,
  worked: number,
  whenDone: () => ImportProgress,
): ImportProgress {
  const offset = progress.offset + worked;
  if (offset < page.items.length) return { ...progress, offset };
  if (page.next !== null) return { ...progress, page: page.next, offset: 0 };
  return whenDone();
}

/**
 * Works `entries` one at a time until the request's deadline (at least one is worked) or a provider
 * error (which ends the stretch at that entry). `work` answers the entry's report item, or null for an
 * entry that is passed over (a layout); `record` adds an item to the part.
 */
export async function workEntries<S, I>(
  ctx: StretchContext,
  entries: readonly S[],
  work: (entry: S) => Promise<I | null>,
  record: (item: I) => void,
): Promise<{ worked: number; stop?: ProviderError }> {
  let worked = 0;
  for (const entry of entries) {
    if (worked > 0 && outOfTime(ctx)) break;
    let item: I | null;
    try {
      item = await work(entry);
    } catch (error) {
      if (error instanceof ProviderError) return { worked, stop: error };
      throw error;
    }
    worked++;
    if (item !== null) record(item);
  }
  return { worked };
}
