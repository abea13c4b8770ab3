/**
 * The fuzzer's plan: for each operation, the properties to check, each a fast-check arbitrary of
 * requests and how many to draw. One property per path parameter, per query parameter, per header
 * parameter and per body field (so each is wrong in turn, whatever the draw), one for whole bodies
 * (broken JSON, other types, deep, huge, unknown fields), and the valid request itself.
 */
import fc from 'fast-check';
import type { OpenApiDocument } from '#shared/doors/openapi/document';
import { adaptExample, pathValue, type FuzzFixtures } from './fixtures';
import type { FuzzRequest } from './http';
import { deepJson, excerpt, hostileBody, hostileQueryValue, hostileSegment, hostileValue, oversizedBody, type Hostile } from './hostile';
import { bodyFields, type FuzzOperation } from './operations';
import { bodyWith, bodyWithout, fieldPaths, pathLabel, type FieldPath } from './mutate';

export interface FuzzProperty {
  operation: FuzzOperation;
  /** `path id`, `query limit`, `body.metadata`, `bodies`, `valid`. */
  name: string;
  arbitrary: fc.Arbitrary<FuzzRequest>;
  /** Requests always sent first (fast-check `examples`): the cases known to have hurt before. */
  examples: FuzzRequest[];
  numRuns: number;
}

/** The issue 28 cases, sent to every field: nested 200 levels, and 200,000 characters. */
const ALWAYS: Hostile[] = [deepJson(200, 'object'), { label: '"x" x 200000', json: JSON.stringify('x'.repeat(200_000)) }];

export interface PlanOptions {
  /** Requests drawn per property (the examples come on top). */
  runs: number;
}

export function planFor(document: OpenApiDocument, operation: FuzzOperation, fixtures: FuzzFixtures, options: PlanOptions): FuzzProperty[] {
  const headers = (contentType: string | null = 'application/json'): Record<string, string> => ({
    ...(operation.caller === 'apiKey' ? { authorization: `Bearer ${fixtures.account.key}` } : {}),
    ...(contentType ? { 'content-type': contentType } : {}),
  });
  const pathParams = operation.parameters.filter((p) => p.in === 'path');
  const validSegments = Object.fromEntries(
    pathParams.map((p) => [p.name, encodeURIComponent(pathValue(fixtures, operation.path, p.name) ?? 'none')]),
  );
  const pathWith = (segments: Record<string, string>, query = '') =>
    operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => segments[name]!) + query;
  const base = operation.body ? adaptExample(fixtures, operation.body.example) : undefined;
  const validBody = base === undefined ? undefined : JSON.stringify(base);
  const validHeaders = headers(validBody === undefined ? null : 'application/json');
  const request = (label: string, overrides: Partial<FuzzRequest> = {}): FuzzRequest => ({
    method: operation.method,
    path: pathWith(validSegments),
    headers: validHeaders,
    ...(validBody === undefined ? {} : { body: validBody }),
    label,
    ...overrides,
  });
  const properties: FuzzProperty[] = [];
  const add = (name: string, arbitrary: fc.Arbitrary<FuzzRequest>, examples: FuzzRequest[] = [], numRuns = options.runs) =>
    properties.push({ operation, name, arbitrary, examples, numRuns });

  add('valid', fc.constant(request('the valid request')), [], 1);

  for (const param of pathParams) {
    add(
      `path ${param.name}`,
      hostileSegment(fixtures.foreignIds).map(({ label, segment }) =>
        request(`{${param.name}} <- ${label}`, { path: pathWith({ ...validSegments, [param.name]: segment }) }),
      ),
      [],
      options.runs * 2,
    );
  }

  for (const param of operation.parameters.filter((p) => p.in === 'query')) {
    const arbitrary = fc
      .tuple(hostileQueryValue, fc.constantFrom('alone', 'twice', 'with an unknown parameter'))
      .map(([{ label, value }, how]) => {
        const query =
          how === 'twice'
            ? `?${param.name}=${value}&${param.name}=1`
            : how === 'alone'
              ? `?${param.name}=${value}`
              : `?${param.name}=${value}&fuzz_unknown=%00x`;
        return request(`?${param.name} <- ${label} (${how})`, { path: pathWith(validSegments, query) });
      });
    add(`query ${param.name}`, arbitrary);
  }

  for (const param of operation.parameters.filter((p) => p.in === 'header')) {
    const value = fc.oneof(
      fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => s.replace(/[^\t\x20-\x7e]/g, '')),
      fc.constantFrom('x'.repeat(300), 'x'.repeat(8_000), ' ', 'strict ', 'STRICT'),
    );
    add(
      `header ${param.name}`,
      value.map((v) => request(`${param.name}: ${excerpt(v)}`, { headers: { ...validHeaders, [param.name.toLowerCase()]: v } })),
    );
  }

  const whole = hostileBody.map((body) =>
    request(body.label, {
      body: body.body,
      headers: headers(body.contentType === undefined ? 'application/json' : body.contentType || null),
    }),
  );
  // An action without a body (cancel, resend, publish, replay) is sent hostile ones too: it must ignore them.
  if (!operation.body && operation.method === 'POST') add('bodies', whole);

  if (operation.body && base !== undefined) {
    const paths = new Map<string, FieldPath>();
    for (const name of bodyFields(document, operation.body.schema, base)) paths.set(name, [name]);
    for (const path of fieldPaths(base)) paths.set(pathLabel(path), path);
    for (const [label, path] of paths) {
      const wrong = fc.oneof(
        {
          weight: 9,
          arbitrary: hostileValue.map((value) => request(`body.${label} <- ${value.label}`, { body: bodyWith(base, path, value) })),
        },
        { weight: 1, arbitrary: fc.constant(request(`body.${label} removed`, { body: bodyWithout(base, path) })) },
      );
      add(
        `body.${label}`,
        wrong,
        ALWAYS.map((value) => request(`body.${label} <- ${value.label}`, { body: bodyWith(base, path, value) })),
      );
    }
    const unknownField = fc
      .tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'fuzz_unknown', ''), fc.string({ maxLength: 12 })), hostileValue)
      .map(([name, value]) => request(`unknown field ${JSON.stringify(name)} <- ${value.label}`, { body: bodyWith(base, [name], value) }));
    add(
      'bodies',
      fc.oneof({ weight: 3, arbitrary: whole }, { weight: 1, arbitrary: unknownField }),
      [request(oversizedBody.label, { body: oversizedBody.body })],
      options.runs * 3,
    );
  }
  return properties;
}
