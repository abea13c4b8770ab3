/**
 * Comparing import reports made on different accounts (or stacks): what must be equal when the same
 * provider data is imported twice (statuses, names, aliases, totals, skipped reasons, errors, attention,
 * template map, DNS plans), with what differs by nature taken out: ids, timestamps, request counts,
 * cursors, what is generated per domain added (DKIM key and selector, ownership token), webhook secrets
 * and the API's base URL.
 */

const ID = /\b(dom|wh|tpl|mig|sup|key|acc)_[0-9A-HJKMNP-TV-Z]{26}\b/g;
/** A DKIM public key (p=…), generated for each domain added here. */
const DKIM_KEY = /p=[A-Za-z0-9+/]{40,}={0,2}/g;
const WEBHOOK_SECRET = /whsec_[A-Za-z0-9+/=_-]+/g;
/** The ownership token and the DKIM selector generated for each domain added here. */
const OWNERSHIP_TOKEN = /service-verification=[A-Za-z0-9_-]+/g;
const DKIM_SELECTOR = /\bsvc[0-9a-z]+\._domainkey\./g;

/** `migration` (a POST /migrations or GET /migrations/{id} answer's) without what differs by nature. */
export function comparableReport(migration: Record<string, any>, apiBaseUrl?: string): Record<string, unknown> {
  const {
    id: _id,
    created_at: _c,
    updated_at: _u,
    requests: _r,
    next_cursor: _n,
    has_more: _h,
    retry_after_seconds: _ra,
    ...rest
  } = migration;
  let text = JSON.stringify(rest)
    .replace(ID, '$1_<id>')
    .replace(DKIM_KEY, 'p=<key>')
    .replace(WEBHOOK_SECRET, 'whsec_<secret>')
    .replace(OWNERSHIP_TOKEN, 'service-verification=<token>')
    .replace(DKIM_SELECTOR, 'svc<selector>._domainkey.');
  if (apiBaseUrl) {
    // The URL, then its host alone (the Postmark SDK's requestHost in code_changes' node-sdk diff).
    text = text.split(apiBaseUrl).join('<api>').split(new URL(apiBaseUrl).host).join('<api host>');
  }
  const report = JSON.parse(text) as Record<string, any>;
  // A webhook's secret is shown only in the answer of the request that created it: which one that is
  // depends on where the requests stopped, so only whether the item carries one in some answer counts.
  for (const item of report.webhooks?.items ?? []) item.secret = null;
  return report;
}

/** The paths of a provider request log (method and path with query), in order, without `statuses`. */
export function requestPaths(log: readonly { method: string; path: string; status: number }[], leaveOut: readonly number[] = []): string[] {
  return log.filter((entry) => !leaveOut.includes(entry.status)).map((entry) => `${entry.method} ${entry.path}`);
}

/** `items` as a sorted multiset (for comparing request logs whose order may differ). */
export const sorted = (items: readonly string[]): string[] => [...items].sort();
