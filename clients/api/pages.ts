/** Paged lists of the API as the clients read them whole (the CLI's lists, a domain looked up by name). */
import type { ApiClient } from './client';

/** Every item of a paged list (`{<items>, has_more, next_cursor}`), following next_cursor to the end. */
export async function allPages<T>(
  client: ApiClient,
  path: string,
  itemsKey: string,
  query: Record<string, string | number | undefined> = {},
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await client.get<Record<string, unknown>>(path, { ...query, limit: 100, cursor });
    items.push(...((page[itemsKey] as T[] | undefined) ?? []));
    if (!page.has_more || typeof page.next_cursor !== 'string') return items;
    cursor = page.next_cursor;
  }
}

/**
 * A domain's id from a `dom_` id (as given) or its name (looked up in every page of GET /domains, any case, a
 * trailing dot ignored); undefined when the account has no domain of that name.
 */
export async function findDomainId(client: ApiClient, idOrName: string): Promise<string | undefined> {
  if (/^dom_/.test(idOrName)) return idOrName;
  const wanted = idOrName.toLowerCase().replace(/\.$/, '');
  return (await allPages<{ id: string; name: string }>(client, '/domains', 'domains')).find((domain) => domain.name === wanted)?.id;
}
