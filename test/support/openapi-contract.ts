/**
 * The contract check: is an answer of the API what the OpenAPI document says? Finds the operation of a
 * request (method and path), then checks that the status is documented, that the required headers are
 * there, and that a JSON body matches the schema of that status (ajv, JSON Schema 2020-12). The
 * integration tests run it on every answer of the local cloud (test/integration/harness/contract.ts).
 */
import Ajv2020, { _, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { JsonSchema, OpenApiDocument, OpenApiOperation } from '#shared/doors/openapi/document';

export interface CheckedRequest {
  method: string;
  /** Path and query, e.g. `/emails?limit=5`, or a full URL. */
  url: string;
}

export interface CheckedResponse {
  status: number;
  /** Header lookup (case-insensitive). */
  header(name: string): string | null | undefined;
  /** The body as text ('' when none). */
  text: string;
}

/**
 * Paths that are not the API: the local cloud's own pages (localstack/cloud/api/api-server.ts); the
 * provider-compatible doors (SendGrid's and Mailgun's /v3/..., Postmark's /email...: the providers' shapes,
 * docs/compat.md, checked by their own tests); the MCP endpoint (JSON-RPC, docs/mcp.md). The dashboard's HTML
 * pages are excused below.
 */
const NOT_API = [/^\/_local(\/|$)/, /^\/health$/, /^\/v3\//, /^\/email(\/|$)/, /^\/mcp(\/|$)/];
const DOCUMENT_ID = 'https://mailservice.invalid/openapi.json';

interface CompiledOperation {
  method: string;
  path: string;
  pattern: RegExp;
  /** Literal segments: more is more specific (`/emails/batch` before `/emails/{id}`). */
  literals: number;
  operation: OpenApiOperation;
}

/** The schema of an answer to a request no operation takes: the API's error envelope. */
const ENVELOPE = { anyOf: [{ $ref: '#/components/schemas/Error' }, { $ref: '#/components/schemas/Unauthorized' }] };

/**
 * The ajv instance the document's schemas compile in. With `source`, validators keep their code, for
 * ajv's standalone modules (./contract-validators.ts); formats then come from ajv-formats' own module.
 */
export function documentAjv(document: OpenApiDocument, options: { source?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateFormats: true,
    // A component schema is one function its users call (inlined into each, the standalone module of the
    // 536 answer schemas was 4.5 MB instead of 3.9).
    inlineRefs: false,
    ...(options.source ? { code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } } : {}),
  });
  addFormats(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components }, DOCUMENT_ID);
  return ajv;
}

/**
 * Every schema the check validates JSON bodies against, by the key `check` looks it up with: each
 * documented JSON answer (`<operationId> <status>`), and the envelope of an unknown route's error.
 */
export function answerSchemas(document: OpenApiDocument): Map<string, JsonSchema> {
  const schemas = new Map<string, JsonSchema>([['envelope', rebase(ENVELOPE)]]);
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      for (const [status, documented] of Object.entries(operation.responses)) {
        const schema = (resolveResponse(document, documented).content as Record<string, JsonSchema> | undefined)?.['application/json']
          ?.schema as JsonSchema | undefined;
        if (schema) schemas.set(`${operation.operationId} ${status}`, rebase(schema));
      }
    }
  }
  return schemas;
}

function resolveResponse(document: OpenApiDocument, answer: JsonSchema): JsonSchema {
  const ref = answer.$ref as string | undefined;
  if (!ref) return answer;
  return document.components.responses[ref.slice(ref.lastIndexOf('/') + 1)]!;
}

export class ContractChecker {
  private ajv: Ajv2020 | undefined;
  private readonly operations: CompiledOperation[];
  private readonly validators: Map<string, ValidateFunction>;

  /** `compiled`: validators compiled beforehand (./contract-validators.ts), by their `answerSchemas` key. */
  constructor(
    readonly document: OpenApiDocument,
    compiled: Record<string, ValidateFunction> = {},
  ) {
    this.validators = new Map(Object.entries(compiled));
    this.operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => {
        const segments = path.split('/').filter(Boolean);
        return {
          method: method.toUpperCase(),
          path,
          pattern: new RegExp(
            `^/${segments.map((segment) => (segment.startsWith('{') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`,
          ),
          literals: segments.filter((segment) => !segment.startsWith('{')).length,
          operation,
        };
      }),
    );
  }

  /** The operation answering `method` on `path` (the most specific path template), or null. */
  operationFor(method: string, path: string): CompiledOperation | null {
    const wanted = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    const matches = this.operations.filter((candidate) => candidate.method === wanted && candidate.pattern.test(path));
    return matches.sort((a, b) => b.literals - a.literals)[0] ?? null;
  }

  /** A validator of a schema in the document (a component $ref or an inline schema). */
  validator(key: string, schema: JsonSchema): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      this.ajv ??= documentAjv(this.document);
      validate = this.ajv.compile(rebase(schema));
      this.validators.set(key, validate);
    }
    return validate;
  }

  /** What is wrong with the answer (empty when it matches the document). */
  check(request: CheckedRequest, response: CheckedResponse): string[] {
    const url = new URL(request.url, 'http://api.invalid');
    const path = url.pathname;
    const method = request.method.toUpperCase();
    if (NOT_API.some((pattern) => pattern.test(path))) return [];
    const what = `${method} ${path}${url.search} -> ${response.status}`;
    const found = this.operationFor(method, path);
    const contentType = (response.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!found) {
      // The dashboard's pages are not API (test/unit/openapi/routes.test.ts names the exclusion).
      if ((path === '/dashboard' || path.startsWith('/dashboard/')) && contentType !== 'application/json') return [];
      // An unknown route or method: the API still answers with its error envelope.
      if (response.status >= 400) {
        return this.matches(`${what} (no such operation)`, 'envelope', ENVELOPE, response, contentType);
      }
      return [`${what}: no operation of the document answers ${method} ${path}`];
    }
    const { operation } = found;
    const label = `${what} (${operation.operationId})`;
    const documented = operation.responses[String(response.status)];
    if (!documented)
      return [
        `${label}: status ${response.status} is not documented (documented: ${Object.keys(operation.responses).join(', ')}); body: ${excerpt(response.text)}`,
      ];
    const answer = resolveResponse(this.document, documented);
    const problems: string[] = [];
    for (const [name, header] of Object.entries((answer.headers ?? {}) as Record<string, JsonSchema>)) {
      if (header.required && !response.header(name)) problems.push(`${label}: required header ${name} is missing`);
    }
    const content = (answer.content ?? {}) as Record<string, JsonSchema>;
    const mediaTypes = Object.keys(content);
    if (method === 'HEAD' || response.text === '') {
      if (response.text === '' && method !== 'HEAD' && mediaTypes.length > 0 && response.status !== 304)
        problems.push(`${label}: empty body, documented ${mediaTypes.join(', ')}`);
      return problems;
    }
    if (mediaTypes.length === 0) return [...problems, `${label}: a body (${contentType}) where none is documented`];
    if (!mediaTypes.includes(contentType))
      return [...problems, `${label}: content-type ${contentType || '(none)'} is not documented (${mediaTypes.join(', ')})`];
    const schema = content[contentType]!.schema as JsonSchema | undefined;
    if (contentType === 'application/json' && schema)
      problems.push(...this.matches(label, `${operation.operationId} ${response.status}`, schema, response, contentType));
    return problems;
  }

  private matches(label: string, key: string, schema: JsonSchema, response: CheckedResponse, contentType: string): string[] {
    if (contentType !== 'application/json') return [`${label}: content-type ${contentType || '(none)'}, expected application/json`];
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      return [`${label}: the body is not JSON: ${excerpt(response.text)}`];
    }
    const validate = this.validator(key, schema);
    if (validate(body)) return [];
    const errors = (validate.errors ?? [])
      .slice(0, 8)
      .map(
        (error) =>
          `${error.instancePath || '(body)'} ${error.message}${error.params && Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : ''}`,
      );
    return [`${label}: the body does not match the document:\n    ${errors.join('\n    ')}\n    body: ${excerpt(response.text)}`];
  }
}

/** `#/components/...` refs of a schema taken out of the document point into the document. */
function rebase(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${DOCUMENT_ID}#/`)) as JsonSchema;
}

function excerpt(text: string): string {
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}
