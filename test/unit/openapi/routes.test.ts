/**
 * The OpenAPI document covers the API exactly: every route of every group's Hono app has an operation
 * and every operation a route (both ways), each operation's group is the one API Gateway sends its path
 * to (infra/definitions/api-groups.ts), its scopes are its route's requireScope, and its rate limit the route's.
 */
import type { Hono } from 'hono';
import { createAccountApp } from '#functions/api/account/app';
import { createApiKeysApp } from '#functions/api/api-keys/app';
import { createAttachmentsApp } from '#functions/api/attachments/app';
import { createAutomationsApp } from '#functions/api/automations/app';
import { createCompatApp } from '#functions/api/compat/app';
import { createDashboardDomainsApp } from '#functions/api/dashboard-domains/app';
import { createDashboardValidationsApp } from '#functions/api/dashboard-validations/app';
import { createDashboardEmailsApp } from '#functions/api/dashboard-emails/app';
import { createDashboardSendApp } from '#functions/api/dashboard-send/app';
import { createDashboardApp } from '#functions/api/dashboard/app';
import { createDomainsApp } from '#functions/api/domains/app';
import { createEmailsApp } from '#functions/api/emails/app';
import { createLinksApp } from '#functions/api/links/app';
import { createMcpApp } from '#functions/api/mcp/app';
import { createMigrationsApp } from '#functions/api/migrations/app';
import { createReceivedEmailsApp } from '#functions/api/received-emails/app';
import { createReferenceApp } from '#functions/api/reference/app';
import { createSmtpCredentialsApp } from '#functions/api/smtp-credentials/app';
import { createSuppressionsApp } from '#functions/api/suppressions/app';
import { createTemplatesApp } from '#functions/api/templates/app';
import { createTenantsApp } from '#functions/api/tenants/app';
import { createWebhooksApp } from '#functions/api/webhooks/app';
import { apiRoutes as gatewayRoutes } from '#infra/api-routes';
import { API_GROUPS } from '#infra/definitions';
import { compileRoutes, matchRoute } from '#localstack/cloud/api/routes';
import { loadConfig } from '#shared/config/config';
import { scopesCoveringAny, type Scope } from '#shared/domain/api-keys/scopes';
import { buildApiDocument } from '#functions/api/openapi';
import { OPERATIONS } from '#functions/api/operations';
import { dashboardOps } from '#functions/api/dashboard/operations';
import { buildServices } from '#shared/services';

// Constructing the apps makes no network call: the clients only connect on first use.
const services = buildServices(
  loadConfig({
    AWS_REGION: 'us-east-1',
    TABLE_NAME: 'unused',
    AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
    AWS_ACCESS_KEY_ID: 'x',
    AWS_SECRET_ACCESS_KEY: 'x',
  }),
);

/** Every API group's app, by the group's name in infra/definitions/api-groups.ts. */
const APPS: Record<string, () => Hono<any>> = {
  emails: () => createEmailsApp(services),
  'api-keys': () => createApiKeysApp(services),
  'smtp-credentials': () => createSmtpCredentialsApp(services),
  tenants: () => createTenantsApp(services),
  domains: () => createDomainsApp(services),
  webhooks: () => createWebhooksApp(services),
  suppressions: () => createSuppressionsApp(services),
  attachments: () => createAttachmentsApp(services),
  'received-emails': () => createReceivedEmailsApp(services),
  templates: () => createTemplatesApp(services),
  automations: () => createAutomationsApp(services),
  migrations: () => createMigrationsApp(services),
  links: () => createLinksApp(services),
  dashboard: () => createDashboardApp(services),
  'dashboard-emails': () => createDashboardEmailsApp(services),
  'dashboard-domains': () => createDashboardDomainsApp(services),
  'dashboard-validations': () => createDashboardValidationsApp(services),
  'dashboard-send': () => createDashboardSendApp(services),
  reference: () => createReferenceApp(),
  compat: () => createCompatApp(services),
  account: () => createAccountApp(services),
  mcp: () => createMcpApp(services, { apiBaseUrl: 'http://127.0.0.1:3000' }),
};

/**
 * Routes that are not API operations, each with why. (The local cloud's own routes, /health and
 * /_local/*, are not in any group's app: localstack/cloud/api/api-server.ts serves them, locally only.)
 */
/** The dashboard's JSON doors under /dashboard (its operations that are not the /api session doors). */
const DASHBOARD_JSON_DOORS = Object.values(dashboardOps)
  .filter((operation) => !operation.path.startsWith('/api/'))
  .map((operation) => `${operation.method.toUpperCase()} ${operation.path}`);

const NOT_OPERATIONS: { why: string; matches: (group: string, method: string, path: string) => boolean }[] = [
  {
    why: "the dashboard's HTML pages, their forms and static assets (its five functions: docs/dashboard.md): pages for a browser, not API; its JSON doors (sign-in, sign-out, session, the team's) are operations",
    matches: (group, method, path) =>
      ['dashboard', 'dashboard-emails', 'dashboard-domains', 'dashboard-validations', 'dashboard-send'].includes(group) &&
      (path === '/dashboard' || path.startsWith('/dashboard/')) &&
      !DASHBOARD_JSON_DOORS.includes(`${method} ${path}`),
  },
  {
    why: "the provider-compatible doors (SendGrid's /v3/mail/send, Postmark's /email*, Mailgun's /v3/{domain}/messages: docs/compat.md): the providers' interfaces, documented there, not ours",
    matches: (group) => group === 'compat',
  },
  {
    why: 'the MCP server (docs/mcp.md): one JSON-RPC endpoint of the Model Context Protocol, whose tools are the operations of this document',
    matches: (group) => group === 'mcp',
  },
];

interface Route {
  group: string;
  method: string;
  /** OpenAPI form: `/emails/{id}`. */
  path: string;
  scopes: string[] | null;
  rateLimit: string | null;
}

function routesOf(group: string, app: Hono<any>): Route[] {
  const routes = new Map<string, Route>();
  for (const { method, path, handler } of app.routes) {
    // app.use(...) middleware is registered for ALL methods; routes have one.
    if (method === 'ALL') continue;
    const openApiPath = path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const key = `${method} ${openApiPath}`;
    const route = routes.get(key) ?? { group, method, path: openApiPath, scopes: null, rateLimit: null };
    const tagged = handler as { scopes?: string[]; rateLimit?: string };
    if (tagged.scopes) route.scopes = [...(route.scopes ?? []), ...tagged.scopes];
    if (tagged.rateLimit) route.rateLimit = tagged.rateLimit;
    routes.set(key, route);
  }
  return [...routes.values()];
}

const document = buildApiDocument();
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
);
const allRoutes = Object.entries(APPS).flatMap(([group, create]) => routesOf(group, create()));
const apiRoutes = allRoutes.filter((route) => !NOT_OPERATIONS.some((rule) => rule.matches(route.group, route.method, route.path)));

test('every API group of infra/definitions/api-groups.ts has its app here (a new group must be added to APPS and documented)', () => {
  expect(Object.keys(APPS).sort()).toEqual(API_GROUPS.map((group) => group.name).sort());
});

test('every route of every group has an operation', () => {
  const missing = apiRoutes
    .filter(
      (route) =>
        !operations.some((op) => op.method === route.method && op.path === route.path && op.operation['x-api-group'] === route.group),
    )
    .map((route) => `${route.method} ${route.path} (group ${route.group})`);
  expect(missing).toEqual([]);
});

test('every operation has a route in the app of its group', () => {
  const orphans = operations
    .filter(
      (op) =>
        !apiRoutes.some((route) => route.method === op.method && route.path === op.path && route.group === op.operation['x-api-group']),
    )
    .map((op) => `${op.method} ${op.path} (${op.operation.operationId}, group ${op.operation['x-api-group']})`);
  expect(orphans).toEqual([]);
});

test('the exclusions exclude something (a rule that matches no route is stale)', () => {
  for (const rule of NOT_OPERATIONS) expect(allRoutes.some((route) => rule.matches(route.group, route.method, route.path))).toBe(true);
});

test("API Gateway's routes send every operation's path to its group's Lambda", () => {
  const gateway = compileRoutes(API_GROUPS.flatMap((group) => gatewayRoutes(group).map((routeKey) => ({ routeKey, target: group.name }))));
  const wrong = operations
    .map((op) => {
      const concrete = op.path.replace(/\{[^}]+\}/g, 'x');
      return { op, target: matchRoute(gateway, op.method, concrete)?.target ?? null };
    })
    .filter(({ op, target }) => target !== op.operation['x-api-group'])
    .map(({ op, target }) => `${op.method} ${op.path}: routed to ${target}, documented in ${op.operation['x-api-group']}`);
  expect(wrong).toEqual([]);
});

test("each API-key operation's scopes are its route's requireScope (or the use case's, where the route has none)", () => {
  const problems: string[] = [];
  for (const route of apiRoutes) {
    const op = operations.find(
      (candidate) =>
        candidate.method === route.method && candidate.path === route.path && candidate.operation['x-api-group'] === route.group,
    )!;
    if (!op) continue;
    const isApiKey = op.operation.security.some((requirement) => 'apiKey' in requirement);
    if (!isApiKey) continue;
    const documented = [...(op.operation['x-scopes'] ?? [])].sort();
    const source = OPERATIONS.find((candidate) => candidate.operationId === op.operation.operationId)!;
    if (route.scopes === null) {
      if (!source.scopesCheckedBy)
        problems.push(`${route.method} ${route.path}: no requireScope on the route, and the operation does not say what checks its scopes`);
      continue;
    }
    // What passes the route's check: its scopes and those covering them (full, mail:admin).
    const actual = scopesCoveringAny(route.scopes as Scope[]).sort();
    if (JSON.stringify(actual) !== JSON.stringify(documented))
      problems.push(`${route.method} ${route.path}: route requires ${actual.join(', ')}, document says ${documented.join(', ')}`);
    if (source.scopesCheckedBy) problems.push(`${route.method} ${route.path}: has requireScope, so scopesCheckedBy is stale`);
  }
  expect(problems).toEqual([]);
});

test('the rate-limited operations are the routes with a rate limit', () => {
  const limited = apiRoutes.filter((route) => route.rateLimit !== null).map((route) => `${route.method} ${route.path} ${route.rateLimit}`);
  const documented = OPERATIONS.filter((op) => op.rateLimit).map((op) => `${op.method.toUpperCase()} ${op.path} ${op.rateLimit}`);
  expect(documented.sort()).toEqual(limited.sort());
});
