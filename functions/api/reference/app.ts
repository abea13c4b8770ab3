/**
 * The reference group: the OpenAPI 3.1 document of the API (GET /openapi.json, docs/openapi.json as
 * `npm run openapi` wrote it) and the same as a page (GET /reference, rendered here once per process).
 * Public: no API key. Self-contained: no script, no asset from anywhere else.
 */
import type { Hono } from 'hono';
import openApiDocument from '#docs/openapi.json';
import { createFrame } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { routes } from '#shared/doors/http/route';
import type { OpenApiDocument } from '#shared/doors/openapi/document';
import { referenceOps } from './operations';
import { REFERENCE_CSP, renderReferencePage } from '#shared/doors/openapi/reference-page';

/** Served documents change only with a deployment: caches may keep them a few minutes. */
const CACHE = 'public, max-age=300';

export function createReferenceApp(document: OpenApiDocument = openApiDocument as unknown as OpenApiDocument): Hono<ApiEnv> {
  const app = createFrame();
  // Both made on first request, once per process (not at cold start).
  let json: string | undefined;
  let page: string | undefined;

  const route = routes(app);

  route(referenceOps.getOpenApiDocument, (c) => {
    // Any site (an API client generator, a docs viewer) may read it.
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Cache-Control', CACHE);
    json ??= JSON.stringify(document);
    return c.body(json, 200, { 'Content-Type': 'application/json; charset=utf-8' });
  });

  route(referenceOps.getReferencePage, (c) => {
    page ??= renderReferencePage(document);
    c.header('Content-Security-Policy', REFERENCE_CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', CACHE);
    return c.html(page);
  });

  return app;
}
