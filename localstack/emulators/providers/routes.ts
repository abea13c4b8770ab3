/**
 * Route matching for the fake providers: GET routes as path patterns whose captures are handed to the
 * handler URL-decoded. Shared paging-query parsing lives here too (integers within bounds).
 */
import type { EmulatedRequest, Reply } from './types';

export interface Route<Data> {
  path: RegExp;
  handle: (request: EmulatedRequest, data: Data, params: string[]) => Reply;
}

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
    return route.handle(request, data, params);
  }
  return null;
}

/** An integer query parameter: `fallback` when absent, null when present but not an integer in [min, max]. */
export function intParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number | null {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) return null;
  const value = Number(raw);
  return value >= min && value <= max ? value : null;
}

/** A query parameter looked up without regard to case (Postmark accepts `count` and `Count`). */
export function paramIgnoringCase(query: URLSearchParams, name: string): string | null {
  const wanted = name.toLowerCase();
  for (const [key, value] of query) if (key.toLowerCase() === wanted) return value;
  return null;
}
