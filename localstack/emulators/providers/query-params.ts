/** The paging query parameters the fake providers' operations share: integers within bounds, names in any case. */

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
