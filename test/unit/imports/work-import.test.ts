/**
 * The import's work loop (shared/usecases/imports/work-import.ts) with in-memory fakes of its ports:
 * a provider source serving suppression pages, the suppression and opt-out stores, the import store's
 * stretch saves, and a clock. What it must do: save one stretch per page, stop at the time budget or
 * the stretch limit exactly where the next request resumes, end on a rate limit with its wait, record an
 * unreadable list and move on, answer a refusal before any work as such, and stop when its claim is lost.
 */
import { INITIAL_PROGRESS, newImportHead, type ImportHead } from '#shared/domain/imports/import';
import { mergeParts, type ReportPart } from '#shared/domain/imports/report';
import { ProviderError, type ProviderSource } from '#shared/ports/provider-source';
import type { SourcePage, SourceSuppression } from '#shared/domain/imports/source';
import type { Suppression } from '#shared/domain/suppressions/model';
import type { ImportDeps } from '#shared/usecases/imports/deps';
import type { StretchContext } from '#shared/usecases/imports/stretch';
import { workImport } from '#shared/usecases/imports/work-import';

const entry = (email: string, kind: SourceSuppression['kind'] = 'hard_bounce'): SourceSuppression => ({
  email,
  kind,
  detail: null,
  created_at: null,
});

/** Two lists: bounces in pages of 2 (5 entries, unless `bounces` says), then unsubscribes (one page). */
function source(
  failures: Record<string, ProviderError> = {},
  bounces = ['a', 'b', 'c', 'd', 'e'].map((local) => entry(`${local}@example.com`)),
  pageSize = 2,
): ProviderSource & { calls: string[] } {
  const lists: Record<string, SourceSuppression[]> = {
    bounces,
    unsubscribes: [entry('a@example.com', 'unsubscribe'), entry('z@example.com', 'unsubscribe')],
  };
  const calls: string[] = [];
  const unused = () => Promise.reject(new Error('not used'));
  return {
    provider: 'sendgrid',
    calls,
    checkAccess: () => Promise.resolve(),
    listDomains: unused,
    listWebhooks: unused,
    listTemplates: unused,
    getTemplate: unused,
    suppressionLists: async () => [
      { id: 'bounces', label: 'bounces' },
      { id: 'unsubscribes', label: 'unsubscribes' },
    ],
    async listSuppressions(list: string, page: string | null): Promise<SourcePage<SourceSuppression>> {
      const at = Number(page ?? 0);
      calls.push(`${list}@${at}`);
      const failure = failures[`${list}@${at}`];
      if (failure) {
        delete failures[`${list}@${at}`];
        throw failure;
      }
      const items = list === 'bounces' ? lists.bounces!.slice(at, at + pageSize) : lists[list]!;
      const next = list === 'bounces' && at + pageSize < lists.bounces!.length ? String(at + pageSize) : null;
      return { items, next };
    },
  };
}

function harness(
  options: {
    failures?: Record<string, ProviderError>;
    budgetMs?: number;
    maxStretches?: number | null;
    loseClaimAt?: number;
    maxSuppressions?: number;
    bounces?: SourceSuppression[];
    pageSize?: number;
  } = {},
) {
  let now = 1_000_000;
  const suppressed = new Map<string, Suppression>();
  const optedOut = new Set<string>();
  const parts: ReportPart[] = [];
  const head = newImportHead(
    { account_id: 'acc_1', provider: 'sendgrid', region: 'us', resources: ['suppressions'], dry_run: false },
    now,
    'mig_01M84MJWBKVJZN2V5J7RKDHSVW',
  );
  const deps = {
    clock: { now: () => new Date(now) },
    importSettings: {
      budgetMs: options.budgetMs ?? 25_000,
      maxStretchesPerRequest: options.maxStretches ?? null,
      leaseMs: 60_000,
      apiBaseUrl: 'http://localhost',
      maxSuppressions: options.maxSuppressions,
    },
    suppressions: {
      async add(suppression: Suppression) {
        const existing = suppressed.get(suppression.email);
        if (existing) return { suppression: existing, created: false };
        suppressed.set(suppression.email, suppression);
        // Each write takes 1 s of the clock: budgets are measured in writes.
        now += 1000;
        return { suppression, created: true };
      },
      async addMany(records: Suppression[]) {
        const results = [];
        for (const record of records) results.push(await this.add(record));
        return results;
      },
    },
    categoryOptOuts: {
      async add(optOut: { email: string }) {
        const created = !optedOut.has(optOut.email);
        optedOut.add(optOut.email);
        return { optOut, created };
      },
      async addMany(optOuts: { email: string }[]) {
        const results = [];
        for (const optOut of optOuts) results.push(await this.add(optOut));
        return results;
      },
    },
    imports: {
      async saveStretch(
        h: ImportHead,
        _lease: number,
        update: { progress: ImportHead['progress']; totals: ImportHead['totals']; part: ReportPart },
      ) {
        if (options.loseClaimAt !== undefined && parts.length === options.loseClaimAt) return false;
        parts.push(update.part);
        h.parts += 1;
        h.progress = update.progress;
        h.totals = update.totals;
        return true;
      },
    },
  } as unknown as ImportDeps;
  const provider = source(options.failures, options.bounces, options.pageSize);
  const ctx = (): StretchContext => ({
    deps,
    principal: { account: { id: 'acc_1' } } as never,
    head,
    source: provider,
    pages: new Map(),
    secrets: new Map(),
    deadlineMs: now + deps.importSettings.budgetMs,
  });
  return { head, parts, suppressed, provider, ctx, work: () => workImport(ctx(), now + 60_000) };
}

describe('the import work loop', () => {
  it('works every page as its own saved stretch, lists in order, to the end', async () => {
    const h = harness();
    const outcome = await h.work();
    expect(outcome).toEqual({ stretches: 5, retryAfterSeconds: null, failedBeforeWork: null });
    // The lists read once (a stretch of its own), then 3 bounce pages and the unsubscribe page.
    expect(h.provider.calls).toEqual(['bounces@0', 'bounces@2', 'bounces@4', 'unsubscribes@0']);
    expect(h.head.progress.resource).toBe(1);
    const report = mergeParts(h.parts).suppressions;
    expect(report.totals).toMatchObject({ found: 7, imported: 6, already_suppressed: 1, bounce: 5, unsubscribe: 1 });
    expect(h.head.totals.suppressions).toEqual(report.totals);
  });

  it('stops at the stretch limit exactly where the next request resumes, with the same final report', async () => {
    const chained = harness({ maxStretches: 1 });
    let requests = 0;
    while (chained.head.progress.resource < chained.head.resources.length) {
      expect((await chained.work()).stretches).toBe(1);
      requests++;
    }
    expect(requests).toBe(5);
    const once = harness();
    await once.work();
    expect(mergeParts(chained.parts)).toEqual(mergeParts(once.parts));
    expect(chained.provider.calls).toEqual(once.provider.calls);
  });

  it('stops when the time budget is spent (at a stretch boundary) and resumes from there', async () => {
    // 1.5 s of budget, checked before each stretch: the list read, then the first page (2 writes, 2 s):
    // out of time (a stretch started in time works at least its first hundred entries).
    const h = harness({ budgetMs: 1_500 });
    expect((await h.work()).stretches).toBe(2);
    expect(h.head.progress).toMatchObject({ resource: 0, list: 0, page: '2', offset: 0 });
    expect((await h.work()).stretches).toBe(1);
    expect(h.head.progress).toMatchObject({ page: '4' });
  });

  it('cuts a page of suppressions at the budget, a hundred entries at a time, and resumes inside the page', async () => {
    // One page of 250 bounces; each write takes 1 s of the clock and the budget is 150 s: the first
    // hundred (100 s) is in time, the second ends past the deadline (200 s), so the page is cut at 200.
    const bounces = Array.from({ length: 250 }, (_, index) => entry(`user${index}@example.com`));
    const h = harness({ budgetMs: 150_000, bounces, pageSize: 1000 });
    expect((await h.work()).stretches).toBe(2);
    expect(h.head.progress).toMatchObject({ resource: 0, list: 0, page: null, offset: 200 });
    expect(h.suppressed.size).toBe(200);
    await h.work();
    expect(h.head.progress.resource).toBe(1);
    expect(h.suppressed.size).toBe(252);
    expect(mergeParts(h.parts).suppressions.totals).toMatchObject({ found: 252, imported: 252, already_suppressed: 0 });
    // The page was read once per request that worked it.
    expect(h.provider.calls).toEqual(['bounces@0', 'bounces@0', 'unsubscribes@0']);
  });

  it('ends the request on a rate limit with its wait, having saved what was done; the next request retries that page', async () => {
    const h = harness({
      failures: { 'bounces@2': new ProviderError({ kind: 'rate_limited', retryAfterSeconds: 7, message: 'slow down' }) },
    });
    expect(await h.work()).toEqual({ stretches: 2, retryAfterSeconds: 7, failedBeforeWork: null });
    expect(h.head.progress).toMatchObject({ page: '2' });
    expect((await h.work()).retryAfterSeconds).toBeNull();
    expect(mergeParts(h.parts).suppressions.totals).toMatchObject({ found: 7, imported: 6 });
  });

  it('records a list it may not read in errors and goes on with the next', async () => {
    const h = harness({ failures: { 'bounces@0': new ProviderError({ kind: 'not_permitted', message: 'no access to bounces' }) } });
    await h.work();
    const report = mergeParts(h.parts);
    expect(report.errors).toEqual([{ resource: 'suppressions', message: 'bounces: no access to bounces' }]);
    expect(report.suppressions.totals).toMatchObject({ found: 2, imported: 2, unsubscribe: 2 });
  });

  it('answers a refusal before any work as such (the caller turns it into 400/502), saving nothing', async () => {
    const refused = harness({ failures: { 'bounces@0': new ProviderError({ kind: 'unavailable', message: 'down' }) } });
    refused.head.progress = { ...INITIAL_PROGRESS, lists: [{ id: 'bounces', label: 'bounces' }], list: 0 };
    const outcome = await refused.work();
    expect(outcome.stretches).toBe(0);
    expect(outcome.failedBeforeWork?.failure.kind).toBe('unavailable');
    expect(refused.parts).toEqual([]);
  });

  it('stops reading suppressions at the per-import limit (a page is never cut) and says so in errors', async () => {
    const h = harness({ maxSuppressions: 3 });
    await h.work();
    const report = mergeParts(h.parts);
    // Pages of 2: the first two pages (4 entries) reach the limit of 3; nothing more is read.
    expect(report.suppressions.totals.found).toBe(4);
    expect(h.provider.calls).toEqual(['bounces@0', 'bounces@2']);
    expect(report.errors).toEqual([{ resource: 'suppressions', message: expect.stringContaining('at most 3 suppressions') }]);
    expect(h.head.progress.resource).toBe(1);
  });

  it('stops with a conflict when its claim was lost (another request took over)', async () => {
    const h = harness({ loseClaimAt: 2 });
    await expect(h.work()).rejects.toMatchObject({ status: 409 });
    expect(h.parts).toHaveLength(2);
  });
});
