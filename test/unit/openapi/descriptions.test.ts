/**
 * Every field of the reference is described: each property of every request body and response schema
 * (components and inline schemas, through $ref, unions and arrays, at any depth) and every parameter.
 * A description comes from `.describe` on the zod schema that validates or describes the field
 * (shared/domain/** for requests, functions/api/<group>/schemas.ts for responses); this test names each one
 * that has none.
 */
import { buildApiDocument } from '#functions/api/openapi';
import type { JsonSchema } from '#shared/doors/openapi/document';

const document = buildApiDocument();
const { schemas, parameters, responses } = document.components;

const described = (value: JsonSchema | undefined) => typeof value?.description === 'string' && value.description.trim().length > 0;
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** Walks `schema`, adding to `missing` every property without a description; returns how many properties it saw. */
function walk(schema: unknown, where: string, missing: string[], seen: Set<string>): number {
  if (schema === null || typeof schema !== 'object') return 0;
  if (Array.isArray(schema)) return schema.reduce((total: number, item) => total + walk(item, where, missing, seen), 0);
  const node = schema as JsonSchema;
  let count = 0;
  const ref = node.$ref as string | undefined;
  if (ref?.startsWith('#/components/schemas/')) {
    // A component is walked once, under its own name.
    const name = refName(ref);
    if (!seen.has(name)) {
      seen.add(name);
      count += walk(schemas[name], name, missing, seen);
    }
  }
  for (const [name, property] of Object.entries((node.properties ?? {}) as Record<string, JsonSchema>)) {
    count++;
    if (!described(property)) missing.push(`${where}.${name}`);
    count += walk(property, `${where}.${name}`, missing, seen);
  }
  if (node.items) count += walk(node.items, `${where}[]`, missing, seen);
  if (node.prefixItems) count += walk(node.prefixItems, `${where}[]`, missing, seen);
  // A map's values: free-form records ({}, true, a scalar type) have no fields; a map of objects does.
  const values = node.additionalProperties;
  if (values !== null && typeof values === 'object') count += walk(values, `${where}{}`, missing, seen);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (node[key]) count += walk(node[key], where, missing, seen);
  for (const key of ['not', 'if', 'then', 'else'] as const) if (node[key]) count += walk(node[key], where, missing, seen);
  return count;
}

const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ where: `${method.toUpperCase()} ${path}`, operation })),
);
const media = (content: unknown) => Object.entries((content ?? {}) as Record<string, JsonSchema>);

test('every property of every component schema has a description', () => {
  const missing: string[] = [];
  const seen = new Set<string>();
  let count = 0;
  for (const name of Object.keys(schemas)) {
    if (seen.has(name)) continue; // already walked through a $ref
    seen.add(name);
    count += walk(schemas[name], name, missing, seen);
  }
  expect(missing).toEqual([]);
  expect(count).toBeGreaterThan(900);
});

test('every request body property has a description (inline schemas and $ref components alike)', () => {
  const missing: string[] = [];
  let bodies = 0;
  for (const { where, operation } of operations) {
    for (const [type, body] of media(operation.requestBody?.content)) {
      bodies++;
      walk(body.schema, `${where} request (${type})`, missing, new Set());
    }
  }
  expect(missing).toEqual([]);
  expect(bodies).toBeGreaterThan(25);
});

test('every response property has a description (inline overlays such as error codes included)', () => {
  const missing: string[] = [];
  let answers = 0;
  const check = (where: string, answer: JsonSchema) => {
    const ref = answer.$ref as string | undefined;
    const resolved = ref ? responses[refName(ref)]! : answer;
    for (const [type, content] of media(resolved.content)) {
      answers++;
      walk(content.schema, `${where} (${type})`, missing, new Set());
    }
  };
  for (const { where, operation } of operations)
    for (const [status, answer] of Object.entries(operation.responses)) check(`${where} ${status}`, answer);
  for (const [name, answer] of Object.entries(responses)) check(`components.responses.${name}`, answer);
  expect(missing).toEqual([]);
  expect(answers).toBeGreaterThan(300);
});

test('every parameter (path, query, header) has a description', () => {
  const missing: string[] = [];
  let count = 0;
  for (const { where, operation } of operations) {
    for (const parameter of operation.parameters ?? []) {
      const ref = parameter.$ref as string | undefined;
      const resolved = ref ? parameters[refName(ref)] : parameter;
      count++;
      if (!resolved) missing.push(`${where}: ${ref} (no such parameter)`);
      else if (!described(resolved)) missing.push(`${where}: ${resolved.in as string} parameter ${resolved.name as string}`);
    }
  }
  for (const [name, parameter] of Object.entries(parameters)) if (!described(parameter)) missing.push(`components.parameters.${name}`);
  expect(missing).toEqual([]);
  expect(count).toBeGreaterThan(100);
});
