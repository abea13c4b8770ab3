/**
 * Fake Mailgun API over one seeded account (MailgunSeed), as in the research notes: HTTP Basic
 * `api:<key>` (401 with the plain-text body `Forbidden`), JSON `{"message":…}` errors, 429 with
 * X-RateLimit-Reset (unix seconds) and `{"retry-seconds": n}`, 403 `{"message":"Forbidden"}` for a
 * path the key may not read. Paging URLs are absolute and carry the mount prefix.
 *
 * Routes: /v4/domains (limit 1..1000, default 100, + skip; total_count) and /v4/domains/{name};
 * /v3/{domain}/bounces|complaints|unsubscribes|whitelists (limit 1..1000, default 100; ordered by
 * address; page=first|next|previous|last with the `address` pivot; the last page answers `items: []`
 * with `paging.next` still present); /v3/{domain}/templates (limit 1..100; page + `p` pivot, by name)
 * and /v3/{domain}/templates/{name} (the active version with ?active=yes); /v3/domains/{domain}/webhooks;
 * /v1/webhooks (webhook_ids filter).
 */
import type { MailgunDomainSeed, MailgunSeed, MailgunTemplate } from './mailgun-seed';
import { dispatch, intParam, type Route } from './routes';
import { json, text, type EmulatedRequest, type FakeProvider, type Reply } from './types';

const message = (status: number, body: string): Reply => json(status, { message: body });

const ROUTES: Route<MailgunSeed>[] = [
  {
    path: /^\/v4\/domains$/,
    handle: (r, d) => {
      const limit = intParam(r.query, 'limit', 100, 1, 1000);
      const skip = intParam(r.query, 'skip', 0, 0, Number.MAX_SAFE_INTEGER);
      if (limit === null || skip === null) return message(400, 'limit must be 1-1000 and skip a non-negative integer');
      return json(200, { total_count: d.domains.length, items: d.domains.slice(skip, skip + limit).map((x) => x.domain) });
    },
  },
  {
    path: /^\/v4\/domains\/([^/]+)$/,
    handle: (_r, d, [name]) =>
      withDomain(d, name, (x) =>
        json(200, { domain: x.domain, receiving_dns_records: x.receiving_dns_records, sending_dns_records: x.sending_dns_records }),
      ),
  },
  {
    path: /^\/v3\/domains\/([^/]+)\/webhooks$/,
    handle: (_r, d, [name]) => withDomain(d, name, (x) => json(200, { webhooks: x.webhooks ?? {} })),
  },
  {
    path: /^\/v1\/webhooks$/,
    handle: (r, d) => {
      const ids = r.query.get('webhook_ids')?.split(',').filter(Boolean);
      return json(200, { webhooks: (d.account_webhooks ?? []).filter((w) => !ids || ids.includes(w.webhook_id)) });
    },
  },
  {
    path: /^\/v3\/([^/]+)\/(bounces|complaints|unsubscribes|whitelists)$/,
    handle: (r, d, [name, list]) =>
      withDomain(d, name, (x) => {
        const rows: { address?: string; value?: string }[] = x[list as 'bounces' | 'complaints' | 'unsubscribes' | 'whitelists'] ?? [];
        return pivotPage(r, rows, (row) => row.address ?? row.value ?? '', 'address', 1000);
      }),
  },
  {
    path: /^\/v3\/([^/]+)\/templates$/,
    handle: (r, d, [name]) => withDomain(d, name, (x) => pivotPage(r, summaries(x.templates ?? []), (t) => t.name, 'p', 100)),
  },
  {
    path: /^\/v3\/([^/]+)\/templates\/([^/]+)$/,
    handle: (r, d, [name, templateName]) =>
      withDomain(d, name, (x) => {
        const t = (x.templates ?? []).find((y) => y.name === templateName);
        if (!t) return message(404, 'template not found');
        const { versions, ...meta } = t;
        const active = versions.find((v) => v.active);
        return json(200, { template: r.query.get('active') === 'yes' && active ? { ...meta, version: active } : meta });
      }),
  },
];

export const fakeMailgun: FakeProvider<MailgunSeed> = {
  provider: 'mailgun',
  credential(_path, headers) {
    const match = /^Basic\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
    if (!match?.[1]) return { kind: 'api', key: null };
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return { kind: 'api', key: colon > 0 && decoded.slice(0, colon) === 'api' ? decoded.slice(colon + 1) : null };
  },
  unauthorized: () => text(401, 'Forbidden'),
  rateLimited: (retryAfterSeconds, nowMs) =>
    json(429, { 'retry-seconds': retryAfterSeconds }, { 'X-RateLimit-Reset': String(Math.floor(nowMs / 1000) + retryAfterSeconds) }),
  unavailable: () => text(503, 'Service Unavailable'),
  forbidden: () => message(403, 'Forbidden'),
  handle: (request, data) => dispatch(ROUTES, request, data) ?? message(404, 'Not Found'),
};

function withDomain(data: MailgunSeed, name: string | undefined, answer: (domain: MailgunDomainSeed) => Reply): Reply {
  const wanted = (name ?? '').toLowerCase();
  const domain = data.domains.find((d) => d.domain.name.toLowerCase() === wanted);
  return domain ? answer(domain) : message(404, `Domain not found: ${name ?? ''}`);
}

function summaries(templates: readonly MailgunTemplate[]): Omit<MailgunTemplate, 'versions'>[] {
  return templates.map(({ versions: _v, ...meta }) => meta);
}

/**
 * Mailgun's cursor paging: rows ordered by `keyOf`, page=first|next|previous|last around the pivot
 * parameter, `paging` URLs absolute (base + path). An empty page still links a `next`.
 */
function pivotPage<T>(request: EmulatedRequest, rows: readonly T[], keyOf: (row: T) => string, pivotName: string, maxLimit: number): Reply {
  const limit = intParam(request.query, 'limit', Math.min(100, maxLimit), 1, maxLimit);
  if (limit === null) return message(400, `limit must be between 1 and ${maxLimit}`);
  const sorted = [...rows].sort((a, b) => compare(keyOf(a), keyOf(b)));
  const pivot = request.query.get(pivotName) ?? '';
  const page = request.query.get('page') ?? '';
  let items: T[];
  if (page === 'next' && pivot) items = sorted.filter((row) => compare(keyOf(row), pivot) > 0).slice(0, limit);
  else if ((page === 'previous' || page === 'prev') && pivot) items = sorted.filter((row) => compare(keyOf(row), pivot) < 0).slice(-limit);
  else if (page === 'last') items = sorted.slice(-limit);
  else items = sorted.slice(0, limit);
  const first = items[0];
  const last = items[items.length - 1];
  const url = (query: string) => `${request.base}${request.path}?${query}`;
  const around = (which: string, key: string) => url(`page=${which}&${pivotName}=${encodeURIComponent(key)}&limit=${limit}`);
  return json(200, {
    items,
    paging: {
      first: url(`limit=${limit}`),
      last: url(`page=last&limit=${limit}`),
      next: around('next', last ? keyOf(last) : pivot),
      previous: around('previous', first ? keyOf(first) : pivot),
    },
  });
}

function compare(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}
