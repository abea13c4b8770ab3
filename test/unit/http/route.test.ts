/**
 * route (shared/doors/http/route.ts): an operation's declaration is its route. The method and path, the scope
 * check, the rate limit and the validation of the query and body come from it, in that order, and the
 * handler gets what was validated.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import { errorResponse } from '#shared/doors/http/errors';
import type { ApiEnv } from '#shared/doors/http/env';
import { honoPath, routes } from '#shared/doors/http/route';
import { op } from '#shared/doors/openapi/operation';
import type { RateLimitRepository } from '#shared/adapters/store/rate-limits';
import type { Principal } from '#shared/usecases/access/principal';

const principal = (scopes: string[]): Principal => ({
  account: { id: 'acc_1' } as Principal['account'],
  credential: { kind: 'api_key', id: 'key_1', scopes, tenant: null, allowed_domains: null },
});

const renameThing = op({
  group: 'things',
  tag: 'Things',
  method: 'patch',
  path: '/things/{id}',
  operationId: 'renameThing',
  summary: 'Rename a thing',
  auth: 'apiKey',
  scopes: ['templates:write'],
  pathParams: { id: 'the thing' },
  query: z.object({ dry: z.enum(['yes', 'no']).default('no') }),
  body: { schema: z.strictObject({ name: z.string().min(1) }) },
  responses: { 200: { description: 'Renamed.' } },
});

const previewThing = op({
  ...renameThing,
  method: 'post',
  path: '/things/{id}/preview',
  operationId: 'previewThing',
  body: { schema: z.object({ size: z.number().default(1) }), optional: true },
});
const importThing = op({
  ...renameThing,
  method: 'post',
  path: '/things',
  operationId: 'importThing',
  pathParams: undefined,
  query: undefined,
  body: { schema: z.object({ name: z.string() }), decodedBy: 'its handler' },
});
const listThings = op({
  ...renameThing,
  method: 'get',
  path: '/things',
  operationId: 'listThings',
  pathParams: undefined,
  body: undefined,
  rateLimit: 'listEmails',
});

/** A fake of the rate-limit counters: allows `allowed` requests, counting them. */
function counters(allowed: number) {
  let hits = 0;
  const repository = {
    hit: async (_subject: string, _name: string, rule: { limit: number }) => {
      hits += 1;
      return { allowed: hits <= allowed, limit: rule.limit, remaining: Math.max(0, allowed - hits), resetAt: 0 };
    },
  };
  return { rateLimits: repository as unknown as RateLimitRepository, hits: () => hits };
}

function appWith(scopes: string[], allowed = 100) {
  const app = new Hono<ApiEnv>();
  const limits = counters(allowed);
  app.use('*', async (c, next) => {
    c.set('principal', principal(scopes));
    await next();
  });
  app.onError((error, c) => {
    const { status, body, headers } = errorResponse(error);
    for (const [name, value] of Object.entries(headers ?? {})) c.header(name, value);
    return c.json(body, status as 400);
  });
  const route = routes(app, { rateLimits: limits.rateLimits, clock: { now: () => new Date('2026-11-25T00:00:00Z') } });
  route(renameThing, (c, { body, query, params }) => c.json({ name: body.name, dry: query.dry, id: params.id }));
  route(previewThing, (c, { body }) => c.json({ size: body.size }));
  route(importThing, async (c, { body }) => c.json({ body: body ?? null, raw: await c.req.text() }));
  route(listThings, (c) => c.json({ ok: true }));
  return { app, hits: limits.hits };
}

const call = async (app: Hono<ApiEnv>, method: string, path: string, body?: string) => {
  const response = await app.request(path, { method, body, headers: body === undefined ? {} : { 'content-type': 'application/json' } });
  return { status: response.status, body: (await response.json()) as any, headers: response.headers };
};

test("the path is the declaration's, in Hono's form", () => {
  expect(honoPath('/webhooks/{id}/deliveries/{deliveryId}/replay')).toBe('/webhooks/:id/deliveries/:deliveryId/replay');
});

test('the handler gets the validated body, query (defaults applied) and path parameters', async () => {
  const { app } = appWith(['templates:write']);
  expect(await call(app, 'PATCH', '/things/th_1?dry=yes', '{"name":"new"}')).toMatchObject({
    status: 200,
    body: { name: 'new', dry: 'yes', id: 'th_1' },
  });
  expect(await call(app, 'PATCH', '/things/th_2', '{"name":"new"}')).toMatchObject({ status: 200, body: { dry: 'no', id: 'th_2' } });
});

test('a body or query the declaration refuses is 400 validation_error naming the field', async () => {
  const { app } = appWith(['templates:write']);
  const badBody = await call(app, 'PATCH', '/things/th_1', '{"name":""}');
  expect(badBody.status).toBe(400);
  expect(badBody.body.error.code).toBe('validation_error');
  expect(badBody.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['name']);
  const badQuery = await call(app, 'PATCH', '/things/th_1?dry=maybe', '{"name":"new"}');
  expect(badQuery.status).toBe(400);
  expect(badQuery.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['dry']);
  expect((await call(app, 'PATCH', '/things/th_1', 'not json')).status).toBe(400);
});

test('the scope is checked before the request is read: 403 insufficient_scope, even for a bad body', async () => {
  const { app } = appWith(['account:read']);
  const answer = await call(app, 'PATCH', '/things/th_1', '{"name":""}');
  expect(answer.status).toBe(403);
  expect(answer.body.error.code).toBe('insufficient_scope');
  expect((await call(appWith(['full']).app, 'PATCH', '/things/th_1', '{"name":"x"}')).status).toBe(200);
});

test('an optional body may be empty (parsed as {}), and a body the handler decodes is handed over unread', async () => {
  const { app } = appWith(['templates:write']);
  expect(await call(app, 'POST', '/things/th_1/preview', '')).toMatchObject({ status: 200, body: { size: 1 } });
  expect(await call(app, 'POST', '/things/th_1/preview', '{"size":3}')).toMatchObject({ status: 200, body: { size: 3 } });
  expect(await call(app, 'POST', '/things', '[1,2]')).toMatchObject({ status: 200, body: { body: null, raw: '[1,2]' } });
});

test('a rate-limited operation counts each request and refuses past the limit with 429 and its headers', async () => {
  const { app, hits } = appWith(['templates:write'], 1);
  const first = await call(app, 'GET', '/things');
  expect(first.status).toBe(200);
  expect(first.headers.get('ratelimit-limit')).not.toBeNull();
  const second = await call(app, 'GET', '/things');
  expect(second.status).toBe(429);
  expect(second.body.error.code).toBe('rate_limited');
  expect(hits()).toBe(2);
  // Operations without a rate limit are not counted.
  await call(app, 'PATCH', '/things/th_1', '{"name":"x"}');
  expect(hits()).toBe(2);
});

test('a rate-limited operation cannot be registered without the counters', () => {
  expect(() => routes(new Hono<ApiEnv>())(listThings, (c) => c.json({}))).toThrow(/listThings is rate limited/);
});
