/**
 * The operations the fuzzer drives, read from docs/openapi.json (the document clients get): method,
 * path template, path, query and header parameters (by name), the JSON request body (its schema and
 * example) and who may call it (an API key, nobody in particular, or a dashboard session).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonSchema, OpenApiDocument } from '#shared/doors/openapi/document';

export type Caller = 'apiKey' | 'public' | 'session';

export interface FuzzParameter {
  name: string;
  in: 'path' | 'query' | 'header';
}

export interface FuzzOperation {
  id: string;
  method: string;
  /** Path template: `/emails/{id}`. */
  path: string;
  caller: Caller;
  parameters: FuzzParameter[];
  /** The JSON body, when the operation takes one. */
  body: { schema: JsonSchema; example: unknown } | null;
}

export function loadDocument(): OpenApiDocument {
  return JSON.parse(readFileSync(join(__dirname, '../../../docs/openapi.json'), 'utf8')) as OpenApiDocument;
}

/** `#/components/<kind>/<name>` -> that component (one level; the fuzzer never needs more). */
function resolveRef<T = JsonSchema>(document: OpenApiDocument, value: unknown): T {
  const ref = (value as { $ref?: string } | null)?.$ref;
  if (!ref) return value as T;
  const [, , kind, name] = ref.split('/');
  return (document.components as unknown as Record<string, Record<string, unknown>>)[kind!]![name!] as T;
}

function callerOf(security: unknown): Caller {
  if (!Array.isArray(security) || security.length === 0) return 'public';
  return security.some((requirement) => 'apiKey' in (requirement as object)) ? 'apiKey' : 'session';
}

export function fuzzOperations(document: OpenApiDocument): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      const operation = raw as unknown as {
        operationId: string;
        security?: unknown;
        parameters?: unknown[];
        requestBody?: { content: Record<string, { schema: JsonSchema; example?: unknown }> };
      };
      const parameters = (operation.parameters ?? []).map((p) => resolveRef<FuzzParameter>(document, p));
      const json = operation.requestBody?.content['application/json'];
      operations.push({
        id: operation.operationId,
        method: method.toUpperCase(),
        path,
        caller: callerOf(operation.security ?? (document as unknown as { security?: unknown }).security),
        parameters: parameters.map((p) => ({ name: p.name, in: p.in })),
        body: json ? { schema: json.schema, example: json.example ?? {} } : null,
      });
    }
  }
  return operations;
}

/** Names of a body's top-level fields: the schema's properties (through $ref, allOf, anyOf) and the example's. */
export function bodyFields(document: OpenApiDocument, schema: JsonSchema, example: unknown): string[] {
  const names = new Set<string>();
  const visit = (value: JsonSchema | undefined, depth: number) => {
    if (!value || depth > 4) return;
    const resolved = resolveRef(document, value);
    for (const name of Object.keys((resolved.properties ?? {}) as object)) names.add(name);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const)
      for (const part of (resolved[key] as JsonSchema[] | undefined) ?? []) visit(part, depth + 1);
  };
  visit(schema, 0);
  if (example !== null && typeof example === 'object' && !Array.isArray(example)) for (const name of Object.keys(example)) names.add(name);
  return [...names].sort();
}
