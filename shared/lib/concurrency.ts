/** Runs `work` over `items` with at most `concurrency` in flight; results in input order. */
export async function mapBounded<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** `promise`'s value, or `'timeout'` when it has not settled within `ms` (the promise itself runs on; its rejection still rejects). */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A scheduled pass over due items: `work` on each, `concurrency` at a time, an item started only while
 * `budgetMs` has not passed since the pass began (the rest wait for the next pass). An item whose work throws
 * is handed to `failed` and counted; the others' results are answered (in no particular order).
 */
export async function mapWithinBudget<T, R>(
  items: readonly T[],
  options: { concurrency: number; budgetMs: number },
  work: (item: T) => Promise<R>,
  failed: (item: T, error: unknown) => void,
): Promise<{ results: R[]; errors: number }> {
  const startedAt = Date.now();
  const results: R[] = [];
  let errors = 0;
  await mapBounded(items, options.concurrency, async (item) => {
    if (Date.now() - startedAt > options.budgetMs) return;
    try {
      results.push(await work(item));
    } catch (error) {
      errors++;
      failed(item, error);
    }
  });
  return { results, errors };
}
