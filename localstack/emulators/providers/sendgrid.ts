/**
 * Fake SendGrid Web API v3 over one seeded account (SendgridSeed), as in the research notes:
 * Bearer auth (401 `{"errors":[…]}`), X-RateLimit-Limit/Remaining/Reset on every answer, 429 with
 * Remaining 0 and the errors body (no Retry-After), 403 "access forbidden" for a missing scope.
 *
 * Routes: /v3/scopes; the five /v3/suppression lists (bare arrays, limit 1..500 + offset, an RFC 5988
 * Link header, no total; bounces need an Accept header, else 406); /v3/asm/groups (+ /{id},
 * /{id}/suppressions: unpaginated); /v3/templates (generations, default legacy; page_size 1..200
 * required; page_token with _metadata.next as a full URL; list versions without content) and
 * /v3/templates/{id}; /v3/whitelabel/domains (+ /{id}); /v3/user/webhooks/event/settings/all
 * (account_status_change only with ?include=) and the legacy single-webhook GET …/event/settings.
 */
import type { SendgridEventWebhook, SendgridSeed, SendgridTemplate } from './sendgrid-seed';
import { dispatch, intParam, type Route } from './routes';
import { json, text, type EmulatedRequest, type FakeProvider, type Reply } from './types';

const RATE_LIMIT = 600;
const SUPPRESSION_LISTS = ['bounces', 'blocks', 'spam_reports', 'invalid_emails', 'unsubscribes'] as const;
const LEGACY_WEBHOOK_FIELDS = [
  'enabled',
  'url',
  'group_resubscribe',
  'delivered',
  'group_unsubscribe',
  'spam_report',
  'bounce',
  'deferred',
  'unsubscribe',
  'processed',
  'open',
  'click',
  'dropped',
  'oauth_client_id',
  'oauth_token_url',
] as const;
const DEFAULT_SCOPES = [
  'asm.groups.read',
  'asm.groups.suppressions.read',
  'suppression.read',
  'suppression.bounces.read',
  'suppression.blocks.read',
  'suppression.invalid_emails.read',
  'suppression.spam_reports.read',
  'suppression.unsubscribes.read',
  'templates.read',
  'templates.versions.read',
  'whitelabel.read',
  'user.webhooks.event.settings.read',
];

const errors = (status: number, message: string, field: string | null = null, headers: Record<string, string> = {}): Reply =>
  json(status, { errors: [{ field, message }] }, headers);
const notFound = (): Reply => errors(404, 'resource not found');

const ROUTES: Route<SendgridSeed>[] = [
  { path: /^\/v3\/scopes$/, handle: (_r, d) => json(200, { scopes: d.scopes ?? DEFAULT_SCOPES }) },
  {
    path: /^\/v3\/suppression\/(bounces|blocks|spam_reports|invalid_emails|unsubscribes)$/,
    handle: (r, d, [list]) => {
      const name = list as (typeof SUPPRESSION_LISTS)[number];
      if (name === 'bounces' && !r.headers.accept) return errors(406, 'Missing Accept header');
      return offsetPage(r, d[name] ?? [], 500, 500);
    },
  },
  {
    path: /^\/v3\/asm\/groups$/,
    handle: (_r, d) =>
      json(
        200,
        (d.asm_groups ?? []).map((g) => ({ ...g.group, unsubscribes: g.suppressions.length })),
      ),
  },
  {
    path: /^\/v3\/asm\/groups\/([^/]+)$/,
    handle: (_r, d, [id]) => {
      const g = (d.asm_groups ?? []).find((x) => String(x.group.id) === id);
      return g ? json(200, { ...g.group, unsubscribes: g.suppressions.length }) : notFound();
    },
  },
  {
    path: /^\/v3\/asm\/groups\/([^/]+)\/suppressions$/,
    handle: (_r, d, [id]) => {
      const g = (d.asm_groups ?? []).find((x) => String(x.group.id) === id);
      return g ? json(200, g.suppressions) : notFound();
    },
  },
  { path: /^\/v3\/templates$/, handle: (r, d) => listTemplates(r, d.templates ?? []) },
  {
    path: /^\/v3\/templates\/([^/]+)$/,
    handle: (_r, d, [id]) => {
      const t = (d.templates ?? []).find((x) => x.id === id);
      return t ? json(200, t) : notFound();
    },
  },
  { path: /^\/v3\/whitelabel\/domains$/, handle: (r, d) => offsetPage(r, d.domains ?? [], 50, 500) },
  {
    path: /^\/v3\/whitelabel\/domains\/(\d+)$/,
    handle: (_r, d, [id]) => {
      const domain = (d.domains ?? []).find((x) => String(x.id) === id);
      return domain ? json(200, domain) : notFound();
    },
  },
  {
    path: /^\/v3\/user\/webhooks\/event\/settings\/all$/,
    handle: (r, d) => {
      if (d.webhook_api === 'legacy') return notFound();
      const include = (r.query.get('include') ?? '').split(',').includes('account_status_change');
      const webhooks = (d.webhooks ?? []).map((w) => {
        const { account_status_change, ...rest } = w;
        return include ? { ...rest, account_status_change: account_status_change ?? false } : rest;
      });
      return json(200, { max_allowed: 5, webhooks });
    },
  },
  { path: /^\/v3\/user\/webhooks\/event\/settings$/, handle: (_r, d) => json(200, legacyWebhook(d.webhooks ?? [])) },
];

export const fakeSendgrid: FakeProvider<SendgridSeed> = {
  provider: 'sendgrid',
  credential(_path, headers) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
    return { kind: 'api', key: match?.[1] ?? null };
  },
  unauthorized(credential) {
    if (credential.key === null) return errors(401, 'authorization required');
    return json(401, {
      errors: [{ message: 'The provided authorization grant is invalid, expired, or revoked', field: null, help: null }],
    });
  },
  rateLimited(retryAfterSeconds, nowMs) {
    return errors(429, 'too many requests', null, rateHeaders(0, Math.floor(nowMs / 1000) + retryAfterSeconds));
  },
  unavailable: () => text(503, 'Service Unavailable'),
  forbidden: () => errors(403, 'access forbidden'),
  handle: (request, data) => dispatch(ROUTES, request, data) ?? notFound(),
  decorate(reply, nowMs) {
    if (reply.headers?.['X-RateLimit-Limit']) return reply;
    return { ...reply, headers: { ...reply.headers, ...rateHeaders(RATE_LIMIT - 1, Math.floor(nowMs / 1000) + 60) } };
  },
};

function rateHeaders(remaining: number, reset: number): Record<string, string> {
  return { 'X-RateLimit-Limit': String(RATE_LIMIT), 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset': String(reset) };
}

/** A bare-array page by limit/offset with SendGrid's Link header (first, prev, next, last). */
function offsetPage(request: EmulatedRequest, items: readonly unknown[], defaultLimit: number, maxLimit: number): Reply {
  const limit = intParam(request.query, 'limit', defaultLimit, 1, maxLimit);
  if (limit === null) return errors(400, `limit must be an integer between 1 and ${maxLimit}`, 'limit');
  const offset = intParam(request.query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  if (offset === null) return errors(400, 'offset must be a non-negative integer', 'offset');
  const link = (o: number, rel: string) =>
    `<${request.base}${request.path}?limit=${limit}&offset=${o}>; rel="${rel}"; title="${Math.floor(o / limit) + 1}"`;
  const last = items.length === 0 ? 0 : Math.floor((items.length - 1) / limit) * limit;
  const links = [
    ...(offset + limit < items.length ? [link(offset + limit, 'next')] : []),
    ...(offset > 0 ? [link(Math.max(0, offset - limit), 'prev')] : []),
    link(last, 'last'),
    link(0, 'first'),
  ];
  return json(200, items.slice(offset, offset + limit), { Link: links.join(', ') });
}

function listTemplates(request: EmulatedRequest, templates: readonly SendgridTemplate[]): Reply {
  const generations = (request.query.get('generations') ?? 'legacy').split(',').map((g) => g.trim());
  if (generations.some((g) => g !== 'legacy' && g !== 'dynamic'))
    return errors(400, 'generations must be legacy, dynamic or legacy,dynamic', 'generations');
  if (!request.query.get('page_size')) return errors(400, 'page_size is required', 'page_size');
  const pageSize = intParam(request.query, 'page_size', 0, 1, 200);
  if (pageSize === null) return errors(400, 'page_size must be between 1 and 200', 'page_size');
  const token = request.query.get('page_token');
  const offset = token === null ? 0 : tokenOffset(token);
  if (offset === null) return errors(400, 'invalid page_token', 'page_token');
  const matching = templates.filter((t) => generations.includes(t.generation));
  const result = matching.slice(offset, offset + pageSize).map((t) => ({
    ...t,
    versions: t.versions.map(({ html_content: _h, plain_content: _p, test_data: _t, ...lean }) => lean),
  }));
  const url = (tokenValue: string | null) => {
    const q = new URLSearchParams();
    if (tokenValue !== null) q.set('page_token', tokenValue);
    q.set('page_size', String(pageSize));
    q.set('generations', generations.join(','));
    return `${request.base}/v3/templates?${q.toString().replace(/%2C/g, ',')}`;
  };
  const next = offset + pageSize < matching.length ? url(Buffer.from(`o:${offset + pageSize}`).toString('base64url')) : undefined;
  return json(200, { result, _metadata: { self: url(token), ...(next ? { next } : {}), count: matching.length } });
}

function tokenOffset(token: string): number | null {
  const match = /^o:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : null;
}

/** The legacy single-webhook settings: the oldest webhook (created_date null first), legacy fields only. */
function legacyWebhook(webhooks: readonly SendgridEventWebhook[]): Record<string, unknown> {
  const oldest = webhooks.find((w) => w.created_date === null) ?? webhooks[0];
  const out: Record<string, unknown> = {};
  for (const field of LEGACY_WEBHOOK_FIELDS) {
    const value = oldest?.[field];
    if (value !== undefined) out[field] = value;
    else if (field !== 'oauth_client_id' && field !== 'oauth_token_url') out[field] = field === 'url' ? '' : false;
  }
  return out;
}
