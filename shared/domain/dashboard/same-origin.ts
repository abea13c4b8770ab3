/**
 * The same-origin check of state-changing dashboard requests and of the sign-in (docs/dashboard.md,
 * "CSRF"), pure: browsers send `Origin` on every cross-origin request and on same-origin POSTs, and
 * `Sec-Fetch-Site` (Fetch Metadata) on every request; when present they must say the request comes from
 * the dashboard's own origin. A request with neither (curl, an old browser) is left to the CSRF token.
 *
 * `Sec-Fetch-Site: same-site` is refused too: a sibling subdomain is another origin, possibly someone
 * else's. `Origin: null` (sandboxed frames, some redirects) is refused.
 */
export interface OriginHeaders {
  origin: string | undefined;
  secFetchSite: string | undefined;
  /** The request's own host (`Host` header: the dashboard's host and port). */
  host: string | undefined;
}

/** Why the request is refused (a message for the 403), or null when it may proceed. */
export function crossOriginReason(headers: OriginHeaders): string | null {
  const site = headers.secFetchSite?.trim().toLowerCase();
  if (site !== undefined && site !== '' && site !== 'same-origin')
    return `Sec-Fetch-Site is "${site}": the dashboard accepts state-changing requests from its own pages only.`;
  if (headers.origin === undefined || headers.origin === '') return null;
  let originHost: string;
  try {
    originHost = new URL(headers.origin).host.toLowerCase();
  } catch {
    return `Origin "${headers.origin}" is not an origin: the dashboard accepts state-changing requests from its own pages only.`;
  }
  if (headers.origin === 'null' || !headers.host || originHost !== headers.host.trim().toLowerCase()) {
    return `Origin ${headers.origin} is not the dashboard's: it accepts state-changing requests from its own pages only.`;
  }
  return null;
}
