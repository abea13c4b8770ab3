/**
 * The OpenAPI 3.1 document of the HTTP API, built from the operations, tags and named response schemas it
 * is given (every group's, listed in functions/api/operations.ts): request schemas are the domain's zod
 * schemas converted with `io: 'input'` (what clients may send: aliases, optional fields with defaults),
 * response schemas (functions/api/<group>/schemas.ts, ./common-schemas.ts) with `io: 'output'` (what the API
 * answers). `npm run openapi` writes it to docs/openapi.json (functions/api/openapi.ts); the reference group
 * serves that file.
 *
 * Its parts: the components (./components.ts), one operation (./operation-object.ts, its errors
 * ./error-answers.ts), the error answers operations share (./shared-responses.ts), and what does not come
 * from the operations (./document-fixed-parts.ts).
 */
import { allSchemas, type Components, namedComponents } from './components';
import { documentInfo, documentServers, headerComponents, parameterComponents, securitySchemes } from './document-fixed-parts';
import type { ApiDescription, OpenApiDocument, OpenApiOperation } from './document-types';
import type { Operation } from './operation';
import { buildOperation } from './operation-object';
import { shareErrorAnswers } from './shared-responses';

export type { ApiDescription, JsonSchema, OpenApiDocument, OpenApiOperation } from './document-types';
export { errorsOf } from './error-answers';
export { SCHEMA_REF } from './schema-ref';

/** Every operation under its path and method (one operation per method and path). */
function pathsOf(
  operations: readonly Operation[],
  requests: Components,
  responses: Components,
): Record<string, Record<string, OpenApiOperation>> {
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  for (const operation of operations) {
    const item = paths[operation.path] ?? {};
    paths[operation.path] = item;
    if (item[operation.method]) throw new Error(`OpenAPI: ${operation.method.toUpperCase()} ${operation.path} is described twice`);
    item[operation.method] = buildOperation(operation, requests, responses);
  }
  return paths;
}

/** The whole document. Deterministic: the same code gives the same document (docs/openapi.json is checked against it). */
export function buildOpenApiDocument(api: ApiDescription, version = '0.1.0'): OpenApiDocument {
  const { requests, responses } = namedComponents(api);
  const paths = pathsOf(api.operations, requests, responses);
  // Error answers many operations give alike become components.responses.
  const sharedResponses = shareErrorAnswers(paths);
  return {
    openapi: '3.1.0',
    info: documentInfo(version),
    servers: documentServers(),
    tags: api.tags.map((tag) => ({ ...tag })),
    security: [{ apiKey: [] }],
    paths,
    components: {
      schemas: allSchemas(requests, responses),
      parameters: parameterComponents(),
      headers: headerComponents(),
      responses: sharedResponses,
      securitySchemes: securitySchemes(),
    },
  };
}
