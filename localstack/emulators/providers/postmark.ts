/**
 * Fake Postmark API over one seeded server + account (PostmarkSeed), as in the research notes:
 * X-Postmark-Server-Token for server resources, X-Postmark-Account-Token for /domains (and /servers,
 * /senders); 401 `{"ErrorCode":10,…}` for a bad or missing token; 422 `{"ErrorCode":…}` for an unknown
 * entity; 429 `{"ErrorCode":429,…}` with no rate-limit headers. Postmark documents no 403: a path
 * the token may not read answers 404. Query parameter names are matched without regard to case.
 *
 * Routes: /server; /message-streams (MessageStreamType, IncludeArchivedStreams) and /{id};
 * /message-streams/{id}/suppressions/dump (SuppressionReason, Origin, EmailAddress; not paginated);
 * /templates (Count + Offset required, TemplateType, LayoutTemplate; TotalCount) and
 * /templates/{idOrAlias}; /webhooks (MessageStream); /domains (count + offset required) and /domains/{id}.
 */
import type { PostmarkDomainDetails, PostmarkSeed, PostmarkTemplate } from './postmark-seed';
import { dispatch, paramIgnoringCase, type Route } from './routes';
import { json, text, type EmulatedRequest, type FakeProvider, type Reply } from './types';

const ACCOUNT_PATHS = /^\/(domains|servers|senders)(\/|$)/;
const STREAM_TYPES = ['All', 'Inbound', 'Transactional', 'Broadcasts'];

const apiError = (status: number, code: number, message: string): Reply => json(status, { ErrorCode: code, Message: message });
const streamNotFound = (): Reply => apiError(422, 1226, "The message stream for the provided 'ID' was not found.");

const ROUTES: Route<PostmarkSeed>[] = [
  { path: /^\/server$/, handle: (r, d) => json(200, { ...d.server, ApiTokens: [r.key] }) },
  {
    path: /^\/message-streams$/,
    handle: (r, d) => {
      const type = paramIgnoringCase(r.query, 'MessageStreamType') ?? 'All';
      if (!STREAM_TYPES.includes(type)) return apiError(422, 1225, `The 'MessageStreamType' value '${type}' is not valid.`);
      const archived = (paramIgnoringCase(r.query, 'IncludeArchivedStreams') ?? 'false').toLowerCase() === 'true';
      const streams = d.message_streams.filter(
        (s) => (type === 'All' || s.MessageStreamType === type) && (archived || s.ArchivedAt === null),
      );
      return json(200, { MessageStreams: streams, TotalCount: streams.length });
    },
  },
  {
    path: /^\/message-streams\/([^/]+)$/,
    handle: (_r, d, [id]) => {
      const stream = d.message_streams.find((s) => s.ID === id);
      return stream ? json(200, stream) : streamNotFound();
    },
  },
  {
    path: /^\/message-streams\/([^/]+)\/suppressions\/dump$/,
    handle: (r, d, [id]) => {
      if (!d.message_streams.some((s) => s.ID === id)) return streamNotFound();
      const reason = paramIgnoringCase(r.query, 'SuppressionReason');
      const origin = paramIgnoringCase(r.query, 'Origin');
      const email = paramIgnoringCase(r.query, 'EmailAddress')?.toLowerCase();
      const rows = (d.suppressions[id ?? ''] ?? []).filter(
        (s) =>
          (!reason || s.SuppressionReason === reason) &&
          (!origin || s.Origin === origin) &&
          (!email || s.EmailAddress.toLowerCase() === email),
      );
      return json(200, { Suppressions: rows });
    },
  },
  { path: /^\/templates$/, handle: (r, d) => listTemplates(r, d.templates) },
  {
    path: /^\/templates\/([^/]+)$/,
    handle: (_r, d, [idOrAlias]) => {
      const t = /^\d+$/.test(idOrAlias ?? '')
        ? d.templates.find((x) => String(x.TemplateId) === idOrAlias)
        : d.templates.find((x) => x.Alias === idOrAlias);
      return t ? json(200, t) : apiError(422, 1101, "The 'TemplateId' associated with this request is not valid or was not found.");
    },
  },
  {
    path: /^\/webhooks$/,
    handle: (r, d) => {
      const stream = paramIgnoringCase(r.query, 'MessageStream');
      if (stream && !d.message_streams.some((s) => s.ID === stream)) return streamNotFound();
      return json(200, { Webhooks: d.webhooks.filter((w) => !stream || w.MessageStream === stream) });
    },
  },
  { path: /^\/domains$/, handle: (r, d) => listDomains(r, d.domains) },
  {
    path: /^\/domains\/(\d+)$/,
    handle: (_r, d, [id]) => {
      const domain = d.domains.find((x) => String(x.ID) === id);
      return domain ? json(200, domain) : apiError(422, 510, 'This domain was not found.');
    },
  },
];

export const fakePostmark: FakeProvider<PostmarkSeed> = {
  provider: 'postmark',
  credential(path, headers) {
    const kind = ACCOUNT_PATHS.test(path) ? 'account' : 'api';
    const raw = headers[kind === 'account' ? 'x-postmark-account-token' : 'x-postmark-server-token'];
    const key = typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : null;
    return { kind, key };
  },
  unauthorized: (credential) =>
    apiError(401, 10, `Request does not contain a valid ${credential.kind === 'account' ? 'Account' : 'Server'} token.`),
  rateLimited: () => apiError(429, 429, 'Rate limit exceeded. Please slow down your requests.'),
  unavailable: () => text(503, 'Service Unavailable'),
  forbidden: () => text(404, 'Not Found'),
  handle: (request, data) => dispatch(ROUTES, request, data) ?? text(404, 'Not Found'),
};

/** Count and Offset are required (any case); Count at most 500. */
function paging(request: EmulatedRequest): { count: number; offset: number } | Reply {
  const count = paramIgnoringCase(request.query, 'Count');
  const offset = paramIgnoringCase(request.query, 'Offset');
  if (count === null || offset === null || !/^\d+$/.test(count) || !/^\d+$/.test(offset)) {
    return apiError(422, 0, "The 'Count' and 'Offset' query parameters are required and must be whole numbers.");
  }
  if (Number(count) < 1 || Number(count) > 500) return apiError(422, 0, "The 'Count' query parameter must be between 1 and 500.");
  return { count: Number(count), offset: Number(offset) };
}

function listTemplates(request: EmulatedRequest, templates: readonly PostmarkTemplate[]): Reply {
  const page = paging(request);
  if ('status' in page) return page;
  const type = paramIgnoringCase(request.query, 'TemplateType') ?? 'All';
  const layout = paramIgnoringCase(request.query, 'LayoutTemplate');
  const matching = templates.filter((t) => (type === 'All' || t.TemplateType === type) && (!layout || t.LayoutTemplate === layout));
  const items = matching.slice(page.offset, page.offset + page.count).map((t) => ({
    Active: t.Active,
    TemplateId: t.TemplateId,
    Name: t.Name,
    Alias: t.Alias,
    TemplateType: t.TemplateType,
    LayoutTemplate: t.LayoutTemplate,
  }));
  return json(200, { TotalCount: matching.length, Templates: items });
}

function listDomains(request: EmulatedRequest, domains: readonly PostmarkDomainDetails[]): Reply {
  const page = paging(request);
  if ('status' in page) return page;
  const items = domains.slice(page.offset, page.offset + page.count).map((d) => ({
    Name: d.Name,
    SPFVerified: d.SPFVerified,
    DKIMVerified: d.DKIMVerified,
    WeakDKIM: d.WeakDKIM,
    ReturnPathDomainVerified: d.ReturnPathDomainVerified,
    ID: d.ID,
  }));
  return json(200, { TotalCount: domains.length, Domains: items });
}
