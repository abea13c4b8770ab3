import * as z from 'zod';

/** `?limit=1..100 (default 25)&cursor=...` on every list. */
export const pageQuerySchema = z.object({
  limit: z.coerce.number().int('limit must be an integer').min(1, 'limit must be 1-100').max(100, 'limit must be 1-100').default(25),
  cursor: z.string().max(2048).optional(),
});

/** A page of a repository's list, as far as the API goes: its items and the cursor of the next page. */
export interface ListPage<T> {
  items: readonly T[];
  next_cursor: string | null;
}

/** The list envelope every list answers: `{<name>: [...], has_more, next_cursor}`, each item presented by `present`. */
export function listPage<K extends string, T, U = T>(
  name: K,
  page: ListPage<T>,
  present?: (item: T) => U,
): { [P in K]: U[] } & { has_more: boolean; next_cursor: string | null } {
  const items = present ? page.items.map((item) => present(item)) : (page.items as unknown as U[]);
  return { [name]: items, has_more: page.next_cursor !== null, next_cursor: page.next_cursor } as { [P in K]: U[] } & {
    has_more: boolean;
    next_cursor: string | null;
  };
}
