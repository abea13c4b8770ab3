import { mapWithinBudget } from '#shared/lib/concurrency';

it('runs every item within the budget, counting and reporting the ones that throw', async () => {
  const failed: string[] = [];
  const outcome = await mapWithinBudget(
    ['a', 'b', 'c'],
    { concurrency: 2, budgetMs: 10_000 },
    async (item) => {
      if (item === 'b') throw new Error('down');
      return item.toUpperCase();
    },
    (item) => failed.push(item),
  );
  expect(outcome.results.sort()).toEqual(['A', 'C']);
  expect(outcome.errors).toBe(1);
  expect(failed).toEqual(['b']);
});

it('starts no item once the budget is spent: those wait for the next pass', async () => {
  const started: number[] = [];
  const outcome = await mapWithinBudget(
    [1, 2, 3, 4],
    { concurrency: 1, budgetMs: 30 },
    async (item) => {
      started.push(item);
      await new Promise((resolve) => setTimeout(resolve, 50));
      return item;
    },
    () => undefined,
  );
  expect(started).toEqual([1]);
  expect(outcome).toEqual({ results: [1], errors: 0 });
});
