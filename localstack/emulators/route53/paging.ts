/** Route 53's list paging: `maxitems` (1 up to the list's limit; the limit when absent or not a number), and the first page of a list. */

export function maxItemsOf(query: URLSearchParams, limit: number): number {
  return Math.min(Math.max(Number(query.get('maxitems') ?? limit) || limit, 1), limit);
}

/** The first `maxItems` of `list`, and the item the next page starts at (undefined: the list is not truncated). */
export function firstPage<T>(list: T[], maxItems: number): { page: T[]; next: T | undefined } {
  return { page: list.slice(0, maxItems), next: list[maxItems] };
}
