/**
 * The route matching the fake providers share: a provider's table (its routes.ts) lists GET routes as
 * path patterns, each naming its operation (its operations/), whose captures are handed to the
 * operation URL-decoded. Query parameters shared by several operations' paging are in query-params.ts.
 */
import type { EmulatedRequest, Operation, Reply, Route } from './types';

/** A GET (or HEAD) route of `path` answered by `operation`. */
export const get = <Data>(path: RegExp, operation: Operation<Data>): Route<Data> => ({ path, operation });

/** The first GET route matching the path, answered; null when none matches (the caller's 404). */
export function dispatch<Data>(routes: readonly Route<Data>[], request: EmulatedRequest, data: Data): Reply | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  for (const route of routes) {
    const match = route.path.exec(request.path);
    if (!match) continue;
    const params = match.slice(1).map((raw) => {
      try {
        return decodeURIComponent(raw ?? '');
      } catch {
        return raw ?? '';
      }
    });
    return route.operation(request, data, params);
  }
  return null;
}
