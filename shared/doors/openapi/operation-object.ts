/**
 * One operation of the document (an OpenAPI Operation Object): its parameters (path, query, request
 * headers), its request body, its answers (success, then errors: ./error-answers.ts) and who may call it.
 * Request and response schemas are named in `requests` and `responses` (./components.ts) after the operation.
 */
import { scopesCoveringAny } from '../../domain/api-keys/scopes';
import type { Components } from './components';
import type { JsonSchema, OpenApiOperation } from './document-types';
import { addErrorAnswers } from './error-answers';
import type { Operation } from './operation';
import { securityOf } from './operation-security';
import { pascal } from './pascal-case';
import { queryParameters } from './query-parameters';
import { headersOf } from './response-headers';
import { ref } from './schema-ref';

const MEDIA_SCHEMAS: Record<string, JsonSchema> = {
  'text/html': { type: 'string' },
  'text/csv': { type: 'string' },
  'image/gif': { type: 'string', contentMediaType: 'image/gif' },
};

/** Path parameters, then the query's, then the request headers (components.parameters). */
function parametersOf(operation: Operation): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  for (const [name, description] of Object.entries(operation.pathParams ?? {}))
    parameters.push({ name, in: 'path', required: true, description, schema: { type: 'string' } });
  if (operation.query) parameters.push(...queryParameters(operation.query));
  for (const header of operation.requestHeaders ?? [])
    parameters.push({ $ref: `#/components/parameters/${header === 'idempotencyKey' ? 'IdempotencyKey' : 'BatchValidation'}` });
  return parameters;
}

function requestBodyOf(operation: Operation, id: string, requests: Components): JsonSchema | undefined {
  if (!operation.body) return undefined;
  const name = requests.name(operation.body.schema, `${id}Request`);
  const content: JsonSchema = {
    'application/json': { schema: ref(name), ...(operation.body.example === undefined ? {} : { example: operation.body.example }) },
  };
  if (operation.body.form) content['application/x-www-form-urlencoded'] = { schema: ref(name) };
  return { required: !operation.body.optional, content };
}

/** The answers the operation declares, by status, with their schemas, media types and headers. */
function declaredAnswers(operation: Operation, id: string, responses: Components): Record<string, JsonSchema> {
  const answers: Record<string, JsonSchema> = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    const content: JsonSchema = {};
    if (response.schema) {
      const name = responses.name(
        response.schema,
        `${id}${Object.keys(operation.responses).length > 1 && status !== '200' ? status : ''}Response`,
      );
      content['application/json'] = { schema: ref(name), ...(response.example === undefined ? {} : { example: response.example }) };
    }
    if (response.mediaType) content[response.mediaType] = { schema: MEDIA_SCHEMAS[response.mediaType] };
    const headers = headersOf(
      [...(response.headers ?? []), ...(operation.rateLimit ? (['rateLimit'] as const) : [])],
      [...(response.requiredHeaders ?? []), ...(operation.rateLimit ? (['rateLimit'] as const) : [])],
    );
    answers[status] = {
      description: response.description,
      ...(headers ? { headers } : {}),
      ...(Object.keys(content).length ? { content } : {}),
    };
  }
  return answers;
}

export function buildOperation(operation: Operation, requests: Components, responses: Components): OpenApiOperation {
  const id = pascal(operation.operationId);
  const parameters = parametersOf(operation);
  const requestBody = requestBodyOf(operation, id, requests);
  const answers = declaredAnswers(operation, id, responses);
  addErrorAnswers(operation, answers);
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: [operation.tag],
    'x-api-group': operation.group,
    ...(operation.auth === 'apiKey' && operation.scopes ? { 'x-scopes': scopesCoveringAny(operation.scopes) } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: answers,
    security: securityOf(operation),
  };
}
