/**
 * What docs/architecture.md says it takes to add an endpoint ("Where to add an endpoint") is what it takes:
 * the files it names, changed in memory (an esbuild plugin lays them over the tree; nothing is written to
 * the sources), are enough for the endpoint to build, appear in the OpenAPI document and in API Gateway's
 * routes, and answer. Two cases: an operation added to an existing group (its operations.ts and app.ts), and
 * a new group (one new folder of four files, plus its entries in functions/api/operations.ts and
 * infra/definitions/api-groups.ts).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

const ROOT = resolve(__dirname, '..', '..');
const OUT = join(ROOT, '.test-data', 'add-endpoint');

/** A change to one file: replace `anchor` (it must occur exactly once) with `text`, or a whole new file. */
type Change = { anchor: string; text: string } | { file: string };

/** The files as changed, by repository path, each applied to the file on disk. */
function overlay(changes: Record<string, Change[]>): Map<string, string> {
  return new Map(
    Object.entries(changes).map(([path, edits]) => {
      const text = edits.reduce(
        (current, edit) => {
          if ('file' in edit) return edit.file;
          const [before, ...after] = current.split(edit.anchor);
          if (after.length !== 1) throw new Error(`${path}: the anchor ${JSON.stringify(edit.anchor)} is not there exactly once`);
          return `${before}${edit.text}${after[0]}`;
        },
        edits.some((edit) => 'file' in edit) ? '' : readFileSync(join(ROOT, path), 'utf8'),
      );
      return [join(ROOT, path), text];
    }),
  );
}

/**
 * esbuild reads the overlaid files (new ones included) instead of the tree's. A new file's folder does not
 * exist, so esbuild resolves its packages and aliases from the repository's root, and this its relative imports.
 */
function overlayPlugin(files: Map<string, string>): Plugin {
  return {
    name: 'overlay',
    setup(on) {
      on.onResolve({ filter: /^[.#]/ }, (args) => {
        const from = files.has(args.importer) ? dirname(args.importer) : args.resolveDir;
        const path = args.path.startsWith('#') ? join(ROOT, args.path.slice(1)) : resolve(from, args.path);
        const found = [`${path}.ts`, join(path, 'index.ts')].find((candidate) => files.has(candidate));
        return found === undefined ? undefined : { path: found };
      });
      on.onLoad({ filter: /\.ts$/ }, (args) =>
        files.has(args.path)
          ? { contents: files.get(args.path)!, loader: 'ts', resolveDir: existsSync(dirname(args.path)) ? dirname(args.path) : ROOT }
          : undefined,
      );
    },
  };
}

interface Probe {
  buildApiDocument(): { paths: Record<string, Record<string, { operationId: string; tags: string[] }>> };
  apiRoutes(group: { name: string }): string[];
  API_GROUPS: { name: string; entry: string }[];
  app: { request(path: string, init?: RequestInit): Promise<Response> };
  handler: unknown;
}

/** Bundles the document, the routes and the app (and the handler) from the overlaid tree, and loads it. */
async function bundle(name: string, files: Map<string, string>, appModule: string, appExport: string): Promise<Probe> {
  const entry = [
    "export { buildApiDocument } from '#functions/api/openapi';",
    "export { apiRoutes } from '#infra/api-routes';",
    "export { API_GROUPS } from '#infra/definitions';",
    `import { ${appExport} } from '${appModule}/app';`,
    `export { handler } from '${appModule}/handler';`,
    "import { buildServices } from '#shared/services';",
    "import { loadConfig } from '#shared/config/config';",
    // No call leaves the process: the endpoint answers before any store is read.
    "const env = { AWS_REGION: 'us-east-1', TABLE_NAME: 'unused', AWS_ENDPOINT_URL: 'http://127.0.0.1:9', AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'x' };",
    `export const app = ${appExport}.length === 0 ? ${appExport}() : ${appExport}(buildServices(loadConfig(env)));`,
  ].join('\n');
  mkdirSync(OUT, { recursive: true });
  const outfile = join(OUT, `${name}.cjs`);
  await build({
    stdin: { contents: entry, resolveDir: ROOT, sourcefile: `${name}-probe.ts`, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
    plugins: [overlayPlugin(files)],
    outfile,
  });
  return require(outfile) as Probe;
}

const GET_API_KEY_USAGE = `
  getApiKeyUsage: {
    method: 'get',
    path: '/api-keys/{id}/usage',
    summary: "An API key's usage",
    auth: 'apiKey',
    scopes: ['account:read'],
    responses: { 200: { description: 'The usage.', schema: z.strictObject({ object: z.literal('api_key_usage'), id: z.string() }) } },
    errors: { 404: ['not_found'] },
  },`;

test('an operation added to an existing group: its operations.ts and app.ts, nothing else', async () => {
  const files = overlay({
    'functions/api/api-keys/operations.ts': [
      {
        anchor: "import { section } from '#shared/doors/openapi/operation';",
        text: "import * as z from 'zod';\nimport { section } from '#shared/doors/openapi/operation';",
      },
      { anchor: "section('api-keys', 'API keys', {", text: `section('api-keys', 'API keys', {${GET_API_KEY_USAGE}` },
    ],
    'functions/api/api-keys/app.ts': [
      {
        anchor: '  const route = routes(app, services);\n',
        text: "  const route = routes(app, services);\n  route(apiKeyOps.getApiKeyUsage, (c, { params }) => c.json({ object: 'api_key_usage' as const, id: params.id }));\n",
      },
    ],
  });
  expect(files.size).toBe(2);
  const probe = await bundle('existing-group', files, '#functions/api/api-keys', 'createApiKeysApp');

  const document = probe.buildApiDocument();
  expect(document.paths['/api-keys/{id}/usage']?.get).toMatchObject({ operationId: 'getApiKeyUsage', tags: ['API keys'] });
  const group = probe.API_GROUPS.find((candidate) => candidate.name === 'api-keys')!;
  expect(probe.apiRoutes(group)).toContain('ANY /api-keys/{proxy+}');
  // It answers, behind the group's authentication: no key, the spec's 401 envelope.
  const answer = await probe.app.request('/api-keys/key_1/usage');
  expect(answer.status).toBe(401);
  expect(await answer.json()).toEqual({ error: { message: expect.any(String) } });
});

const WIDGETS = {
  'functions/api/widgets/operations.ts': `import { section } from '#shared/doors/openapi/operation';
import { widgetSchema } from './schemas';

export const widgetOps = section('widgets', 'Widgets', {
  getWidget: {
    method: 'get',
    path: '/widgets/{id}',
    summary: 'Retrieve a widget',
    auth: 'public',
    responses: { 200: { description: 'The widget.', schema: widgetSchema } },
    errors: { 404: ['not_found'] },
  },
});
`,
  'functions/api/widgets/schemas.ts': `import * as z from 'zod';

export const widgetSchema = z.strictObject({ object: z.literal('widget'), id: z.string().describe("the widget's id") });
`,
  'functions/api/widgets/app.ts': `import type { Hono } from 'hono';
import { createFrame } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { routes } from '#shared/doors/http/route';
import { widgetOps } from './operations';

export function createWidgetsApp(): Hono<ApiEnv> {
  const app = createFrame();
  const route = routes(app);
  route(widgetOps.getWidget, (c, { params }) => c.json({ object: 'widget' as const, id: params.id }));
  return app;
}
`,
  'functions/api/widgets/handler.ts': `import { handle } from 'hono/aws-lambda';
import { createWidgetsApp } from './app';

export const handler = handle(createWidgetsApp());
`,
};

test('a new group: one folder of four files, and its entries in the two lists', async () => {
  const files = overlay({
    ...Object.fromEntries(Object.entries(WIDGETS).map(([path, file]) => [path, [{ file }]])),
    'functions/api/operations.ts': [
      {
        anchor: "import { webhookOps } from './webhooks/operations';",
        text: "import { webhookOps } from './webhooks/operations';\nimport { widgetOps } from './widgets/operations';",
      },
      { anchor: '  ...all(referenceOps),\n', text: '  ...all(referenceOps),\n  ...all(widgetOps),\n' },
      {
        anchor: 'export const TAGS: readonly { name: string; description: string }[] = [\n',
        text: "export const TAGS: readonly { name: string; description: string }[] = [\n  { name: 'Widgets', description: 'Widgets.' },\n",
      },
    ],
    'infra/definitions/api-groups.ts': [
      {
        anchor: 'export const API_GROUPS: ApiGroupDefinition[] = [\n',
        text: "export const API_GROUPS: ApiGroupDefinition[] = [\n  { name: 'widgets', entry: 'functions/api/widgets/handler.ts', capabilities: [], grants: [] },\n",
      },
    ],
  });
  expect([...files.keys()].filter((path) => path.includes('/functions/api/widgets/'))).toHaveLength(4);
  expect(files.size).toBe(6);
  const probe = await bundle('new-group', files, '#functions/api/widgets', 'createWidgetsApp');

  expect(probe.buildApiDocument().paths['/widgets/{id}']?.get).toMatchObject({ operationId: 'getWidget', tags: ['Widgets'] });
  const group = probe.API_GROUPS.find((candidate) => candidate.name === 'widgets');
  expect(group).toMatchObject({ entry: 'functions/api/widgets/handler.ts' });
  expect(probe.apiRoutes(group!)).toEqual(['ANY /widgets/{proxy+}']);
  expect(typeof probe.handler).toBe('function');
  const answer = await probe.app.request('/widgets/wid_1');
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ object: 'widget', id: 'wid_1' });
  expect((await probe.app.request('/widgets')).status).toBe(404);
});

test('the overlay fails loudly when the docs and the tree part ways (an anchor gone)', () => {
  expect(() => overlay({ 'functions/api/operations.ts': [{ anchor: 'no such text in the file', text: '' }] })).toThrow(/exactly once/);
});
