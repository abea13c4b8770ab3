/**
 * The OpenAPI 3.1 document of the HTTP API, built from the operations, tags and named response schemas it
 * is given (every group's, listed in functions/api/operations.ts): request schemas are the domain's zod
 * schemas converted with `io: 'input'` (what clients may send: aliases, optional fields with defaults),
 * response schemas (functions/api/<group>/schemas.ts, ./common-schemas.ts) with `io: 'output'` (what the API
 * answers). `npm run openapi` writes it to docs/openapi.json (functions/api/openapi.ts); the reference group
 * serves that file.
 */
import * as z from 'zod';
import type { ErrorCode } from '../../domain/errors';
import { scopesCoveringAny } from '../../domain/api-keys/scopes';
import { ATTACHMENT_UPLOAD_ALIASES, createAttachmentUploadSchema } from '../../domain/emails/attachment-upload';
import { ATTACHMENT_ALIASES, attachmentReferenceSchema, attachmentSchema, inlineAttachmentSchema } from '../../domain/emails/attachments';
import { SEND_REQUEST_ALIASES, sendRequestSchema } from '../../domain/emails/send-request';
import { stepSchema as stepValidation } from '../../domain/automations/validate';
import { MAX_FINGERPRINT_DEPTH } from '../../domain/emails/idempotency';
import { exampleError } from './examples';
import type { Operation, ResponseHeader } from './operation';
import { attachmentInputSchema, dnsCredentialsSchema, stepInputSchema } from './requests';
import { conditionSchema } from '../../domain/automations/condition-schema';
import { errorBodySchema, okSchema, tagSchema, unauthorizedBodySchema } from './common-schemas';

export type JsonSchema = { [key: string]: unknown };

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  'x-api-group': string;
  'x-scopes'?: string[];
  parameters?: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, JsonSchema>;
  security: Record<string, string[]>[];
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: JsonSchema & { title: string; version: string; description: string };
  servers: JsonSchema[];
  tags: { name: string; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, JsonSchema>;
    headers: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
  };
}

/** What the document describes: every operation in the reference's order, the reference's sections, and the response components the groups name. */
export interface ApiDescription {
  operations: readonly Operation[];
  tags: readonly { name: string; description: string }[];
  schemas: readonly (readonly [z.ZodType, string])[];
}

export const SCHEMA_REF = (name: string) => `#/components/schemas/${name}`;

/** Request components with a name of their own (others are named after their operation). */
const REQUEST_COMPONENTS: [z.ZodType, string][] = [
  [sendRequestSchema, 'SendEmailRequest'],
  [attachmentInputSchema, 'AttachmentInput'],
  [stepInputSchema, 'AutomationStepInput'],
  [conditionSchema, 'Condition'],
  [dnsCredentialsSchema, 'DnsCredentials'],
];

/** Response components with a name of their own, before the groups' (`ApiDescription.schemas`). */
const COMMON_RESPONSE_COMPONENTS: [z.ZodType, string][] = [
  [errorBodySchema, 'Error'],
  [unauthorizedBodySchema, 'Unauthorized'],
  [okSchema, 'Ok'],
  [tagSchema, 'Tag'],
];

/** Objects that accept aliases of their fields (alias -> canonical): each alias is listed beside its field. */
const ALIASES = new Map<z.ZodType, Readonly<Record<string, string>>>([
  [sendRequestSchema, SEND_REQUEST_ALIASES],
  [inlineAttachmentSchema, ATTACHMENT_ALIASES],
  [attachmentReferenceSchema, ATTACHMENT_ALIASES],
  [createAttachmentUploadSchema, ATTACHMENT_UPLOAD_ALIASES],
]);

/** Schemas validated by hand-written dispatch (z.unknown().transform): documented by a component. */
const DOCUMENTED_AS = new Map<z.ZodType, string>([
  [attachmentSchema, 'AttachmentInput'],
  [stepValidation, 'AutomationStepInput'],
]);

/**
 * What the fields of request bodies whose schema lives outside shared/domain mean (the schema says their
 * types and limits): the send request's, written here first, and the test event's (shared/usecases/webhooks/test-event.ts).
 * Every other field is described where it is validated (`.describe` in shared/domain/**).
 */
const FIELD_DESCRIPTIONS: Record<string, Record<string, string>> = {
  SendEmailRequest: {
    from: '`"a@b.c"`, `"Name <a@b.c>"` or `{email, name?}`: a verified domain of the account, or the sandbox sender (`<anything>@<sandbox domain>`); for a tenant with default_from_domain, a bare local part. Required unless the template has a from.',
    to: 'An address or a list; to, cc and bcc together at most 50.',
    subject: 'One line. Required unless a template gives it.',
    html: 'At least one of html and text (unless template).',
    text: 'At least one of html and text (unless template).',
    tags: '`[{name, value}]` or `{name: value}`: up to 10, names and values of A-Za-z0-9_- (stored with the email, sent to SES).',
    headers:
      'Custom headers (at most 50; names 1-126 printable ASCII characters, values one line of at most 998). Transport and authentication headers (To, From, DKIM-Signature, List-Unsubscribe, ...) and every X-SES-* and X-Service-* header (the prefix in any case) are refused at `headers.<Name>`.',
    scheduled_at:
      'ISO 8601 with a time zone, in the future, at most 365 days ahead: the email is stored as `scheduled`. No attachments then.',
    category:
      'transactional (default), product or newsletter: product and newsletter mail respects category opt-outs (and a template gives its own).',
    attachments:
      'Up to 10: inline (`data` in base64, 10 MB decoded each) or an upload (`attachment_id` from POST /attachments). Refused on scheduled sends and in batches.',
    tenant: 'Send on behalf of a tenant: its external_id or id.',
    template: 'Send a published template by alias; html and text are refused with it.',
    unsubscribe:
      "Managed one-click unsubscribe (List-Unsubscribe headers, `{{unsubscribe_url}}`); default: the template's setting, else off.",
  },
  SendTestEventRequest: {
    event: 'the webhook event type to build the payload of (any supported type)',
    email_id: 'build it from this email of the account (msg_...): email events the service sends only; default: an example',
    deliver: 'false only returns the payload; default true: it is also queued to the subscribed endpoints',
    tenant: 'the tenant the payload names (external_id or id): email events carry it, tenant events are about it',
  },
};

const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);
const SAFE_INTEGER = 9007199254740991;

/** Drops what only a standalone JSON Schema needs, and zod's safe-integer bounds (noise in a document). */
function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$schema' || key === '$id') continue;
    if ((key === 'minimum' && item === -SAFE_INTEGER) || (key === 'maximum' && item === SAFE_INTEGER)) continue;
    if (key === 'propertyNames' && JSON.stringify(item) === '{"type":"string"}') continue;
    out[key] = clean(item);
  }
  return out;
}

function override(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const documented = DOCUMENTED_AS.get(ctx.zodSchema as z.ZodType);
  if (documented) {
    for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
    ctx.jsonSchema.$ref = SCHEMA_REF(documented);
    return;
  }
  const aliases = ALIASES.get(ctx.zodSchema as z.ZodType);
  const properties = ctx.jsonSchema.properties as Record<string, JsonSchema> | undefined;
  if (aliases && properties) {
    const withAliases = { ...properties };
    for (const [alias, canonical] of Object.entries(aliases)) {
      const field = properties[canonical];
      if (field) withAliases[alias] = { ...field, description: `Alias of \`${canonical}\` (the canonical name wins when both are sent).` };
    }
    ctx.jsonSchema.properties = withAliases;
    // A required field may come under an alias: one of the names is required.
    const required = (ctx.jsonSchema.required as string[] | undefined) ?? [];
    const aliased = required.filter((field) => Object.values(aliases).includes(field));
    if (aliased.length > 0) {
      ctx.jsonSchema.required = required.filter((field) => !aliased.includes(field));
      if ((ctx.jsonSchema.required as string[]).length === 0) delete ctx.jsonSchema.required;
      ctx.jsonSchema.allOf = aliased.map((field) => ({
        anyOf: [field, ...Object.keys(aliases).filter((alias) => aliases[alias] === field)].map((name) => ({ required: [name] })),
      }));
    }
  }
}

class Components {
  readonly registry = z.registry<{ id: string }>();
  private readonly names = new Map<z.ZodType, string>();
  constructor(readonly io: 'input' | 'output') {}

  /** The component name of `schema`, registering it under `name` the first time. */
  name(schema: z.ZodType, name: string): string {
    const known = this.names.get(schema);
    if (known) return known;
    if ([...this.names.values()].includes(name)) throw new Error(`OpenAPI: two ${this.io} schemas named ${name}`);
    this.names.set(schema, name);
    this.registry.add(schema, { id: name });
    return name;
  }

  schemas(): Record<string, JsonSchema> {
    const { schemas } = z.toJSONSchema(this.registry, {
      io: this.io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      uri: SCHEMA_REF,
      override,
    });
    const out = clean(schemas) as Record<string, JsonSchema>;
    for (const [name, descriptions] of Object.entries(FIELD_DESCRIPTIONS)) {
      if (!out[name]) continue;
      const properties = out[name].properties as Record<string, JsonSchema> | undefined;
      for (const [field, description] of Object.entries(descriptions)) {
        if (!properties?.[field]) throw new Error(`OpenAPI: ${name} has no field ${field} to describe`);
        properties[field] = { ...properties[field], description };
      }
    }
    return out;
  }
}

const ref = (name: string) => ({ $ref: SCHEMA_REF(name) });

/** Standard descriptions of query parameters the schemas do not describe. */
const QUERY_DESCRIPTIONS: Record<string, string> = {
  limit: 'Page size (1-100).',
  cursor: "The previous page's next_cursor (opaque; only valid for the same list).",
  tenant: "Only this tenant's: its external_id or id.",
  status: 'Only those with this status.',
  email: 'Only this address.',
  reason: 'Only this reason.',
  category: 'The opt-outs of this category instead of suppressions.',
  days: 'Days to count, ending today (UTC).',
  version: 'draft (default) or published.',
  format: 'csv (default) or json.',
  to: 'Only email to this address (header To or envelope).',
  from: 'Only email from this address.',
  since: 'Only email received at or after this time.',
};

function queryParameters(schema: z.ZodObject): JsonSchema[] {
  const json = clean(z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' })) as JsonSchema;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: required.has(name),
      description: (description as string | undefined) ?? QUERY_DESCRIPTIONS[name] ?? '',
      schema: rest,
    };
  });
}

const HEADERS: Record<ResponseHeader, [string, string][]> = {
  rateLimit: [
    ['ratelimit-limit', 'RateLimitLimit'],
    ['ratelimit-remaining', 'RateLimitRemaining'],
    ['ratelimit-reset', 'RateLimitReset'],
  ],
  retryAfter: [['Retry-After', 'RetryAfter']],
  setCookie: [['Set-Cookie', 'SetSessionCookie']],
  location: [['Location', 'Location']],
  contentDisposition: [['Content-Disposition', 'ContentDisposition']],
};

function headersOf(names: readonly ResponseHeader[] = [], required: readonly ResponseHeader[] = []): JsonSchema | undefined {
  if (names.length === 0) return undefined;
  const out: JsonSchema = {};
  for (const name of names) {
    for (const [header, component] of HEADERS[name]) {
      out[header] = required.includes(name)
        ? { $ref: `#/components/headers/${component}`, required: true }
        : { $ref: `#/components/headers/${component}` };
    }
  }
  return out;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Not authenticated',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  413: 'Too large',
  422: 'Refused',
  429: 'Limited',
  500: 'Internal error',
  502: 'Upstream error',
  503: 'Unavailable',
};

/** Every error an operation can answer: its own and those of its kind. */
export function errorsOf(operation: Operation): Map<number, ErrorCode[]> {
  const errors = new Map<number, Set<ErrorCode>>();
  const add = (status: number, ...codes: ErrorCode[]) => {
    const set = errors.get(status) ?? new Set<ErrorCode>();
    for (const code of codes) set.add(code);
    errors.set(status, set);
  };
  if (operation.auth !== 'public') add(401, 'unauthorized');
  if (operation.body || operation.query) add(400, 'validation_error');
  if (operation.body) add(413, 'payload_too_large');
  if (operation.pathParams) add(404, 'not_found');
  if (operation.auth === 'apiKey' && operation.scopes) add(403, 'insufficient_scope');
  if (operation.rateLimit) add(429, 'rate_limited');
  add(500, 'internal_error');
  for (const [status, codes] of Object.entries(operation.errors ?? {})) add(Number(status), ...(codes ?? []));
  return new Map([...errors.entries()].sort(([a], [b]) => a - b).map(([status, codes]) => [status, [...codes]]));
}

/** Response headers of an error: rate-limited operations carry them on their refusals too; 429 has Retry-After. */
function errorHeaders(operation: Operation, status: number): JsonSchema | undefined {
  const names: ResponseHeader[] = [];
  if (operation.rateLimit && (status === 400 || status === 429)) names.push('rateLimit');
  if (status === 429) names.push('retryAfter');
  return headersOf(names, operation.rateLimit && status === 429 ? ['rateLimit', 'retryAfter'] : []);
}

const UNAUTHORIZED_EXAMPLES: Record<Operation['auth'], string> = {
  apiKey: 'Missing API key: send Authorization: Bearer <key>.',
  session: 'Not signed in: this route takes the dashboard session cookie (svc_session).',
  public: 'Wrong email or password.',
};

function errorContent(operation: Operation, status: number, codes: ErrorCode[]): JsonSchema {
  if (status === 401)
    return { 'application/json': { schema: ref('Unauthorized'), example: { error: { message: UNAUTHORIZED_EXAMPLES[operation.auth] } } } };
  return {
    'application/json': {
      schema: {
        allOf: [
          ref('Error'),
          {
            type: 'object',
            properties: {
              error: {
                type: 'object',
                description: 'what went wrong',
                properties: { code: { type: 'string', enum: codes, description: 'the codes this operation answers with this status' } },
              },
            },
          },
        ],
      },
      example: exampleError(status, codes[0]!),
    },
  };
}

function security(operation: Operation): Record<string, string[]>[] {
  if (operation.auth === 'public') return [];
  if (operation.auth === 'session')
    return operation.method === 'get' ? [{ dashboardSession: [] }] : [{ dashboardSession: [], csrfToken: [] }];
  const scopes = operation.scopes ?? [];
  return scopes.length === 0 ? [{ apiKey: [] }] : scopesCoveringAny(scopes).map((scope) => ({ apiKey: [scope] }));
}

const MEDIA_SCHEMAS: Record<string, JsonSchema> = {
  'text/html': { type: 'string' },
  'text/csv': { type: 'string' },
  'image/gif': { type: 'string', contentMediaType: 'image/gif' },
};

/** Error answers several operations share, as components.responses (named after status and codes). */
class SharedResponses {
  readonly components: Record<string, JsonSchema> = {};
  private readonly byJson = new Map<string, string>();
  private readonly uses = new Map<string, number>();

  /** Called once per operation answer first (to count), then `use` gives the answer or a $ref. */
  count(answer: JsonSchema): void {
    const json = JSON.stringify(answer);
    this.uses.set(json, (this.uses.get(json) ?? 0) + 1);
  }

  use(answer: JsonSchema, name: string): JsonSchema {
    const json = JSON.stringify(answer);
    if ((this.uses.get(json) ?? 0) < 2) return answer;
    let known = this.byJson.get(json);
    if (!known) {
      known = name;
      for (let n = 2; this.components[known]; n++) known = `${name}${n}`;
      this.byJson.set(json, known);
      this.components[known] = answer;
    }
    return { $ref: `#/components/responses/${known}` };
  }
}

const errorResponseName = (operation: Operation, status: number, codes: readonly string[]) =>
  status === 401
    ? `Error401${pascal(operation.auth)}`
    : `Error${status}${codes.map((code) => code.split('_').map(pascal).join('')).join('Or')}`;

function buildOperation(operation: Operation, requests: Components, responses: Components): OpenApiOperation {
  const id = pascal(operation.operationId);
  const parameters: JsonSchema[] = [];
  for (const [name, description] of Object.entries(operation.pathParams ?? {}))
    parameters.push({ name, in: 'path', required: true, description, schema: { type: 'string' } });
  if (operation.query) parameters.push(...queryParameters(operation.query));
  for (const header of operation.requestHeaders ?? [])
    parameters.push({ $ref: `#/components/parameters/${header === 'idempotencyKey' ? 'IdempotencyKey' : 'BatchValidation'}` });

  let requestBody: JsonSchema | undefined;
  if (operation.body) {
    const name = requests.name(operation.body.schema, `${id}Request`);
    const content: JsonSchema = {
      'application/json': { schema: ref(name), ...(operation.body.example === undefined ? {} : { example: operation.body.example }) },
    };
    if (operation.body.form) content['application/x-www-form-urlencoded'] = { schema: ref(name) };
    requestBody = { required: !operation.body.optional, content };
  }

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
  for (const [status, codes] of errorsOf(operation)) {
    const description =
      status === 401
        ? 'Not authenticated: the body carries only a message.'
        : `${STATUS_TEXT[status] ?? 'Error'}: ${codes.map((code) => `\`${code}\``).join(', ')}.`;
    const existing = answers[status];
    const headers = errorHeaders(operation, status);
    const allHeaders = existing?.headers || headers ? { headers: { ...(existing?.headers as JsonSchema | undefined), ...headers } } : {};
    answers[status] = existing
      ? {
          ...existing,
          description: `${existing.description as string} ${description}`,
          ...allHeaders,
          content: { ...(existing.content as JsonSchema), ...errorContent(operation, status, codes) },
        }
      : {
          description,
          ...allHeaders,
          content: errorContent(operation, status, codes),
          'x-shared-name': errorResponseName(operation, status, codes),
        };
  }

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
    security: security(operation),
  };
}

const DESCRIPTION = `The HTTP API of the mail service: JSON in and out, \`Authorization: Bearer svc_...\`.

- **Authentication**: an API key (\`svc_\`) as a Bearer token; each operation lists the scopes that may call it (\`full\` always may). A missing, malformed, unknown or revoked key is 401 with a body of exactly \`{"error": {"message": "..."}}\`. The dashboard's session cookie (with \`X-CSRF-Token\` on state-changing requests) works on the dashboard's doors only.
- **Errors**: every other error is \`{"error": {"message", "code", "details"?, "hint"?, "upgrade_url"?}}\`; each operation lists the codes it can answer per status. Retry only \`rate_limited\`, \`internal_error\`, \`upstream_error\` and \`service_unavailable\`, with backoff and the same Idempotency-Key.
- **Lists**: \`?limit\` (1-100, default 25) and \`?cursor\` (the previous page's \`next_cursor\`); answers \`{<items>, has_more, next_cursor}\`, newest first.
- **Idempotency**: \`Idempotency-Key\` on POST /emails, /emails/batch and /events; kept 24 hours per account; the same key and body replay the first answer, another body is 409 \`idempotency_conflict\`. Bodies nested more than ${MAX_FINGERPRINT_DEPTH} levels deep are refused with it.
- **Rate limits**: GET /emails answers \`ratelimit-limit\`, \`ratelimit-remaining\` and \`ratelimit-reset\` on every answer and 429 \`rate_limited\` with \`Retry-After\` over the limit.
- **Limits**: a request body is at most 6 MB (413 \`payload_too_large\`); a path segment over 256 bytes is 404.
- Every answer carries \`x-request-id\`: quote it when reporting a problem.`;

/** The whole document. Deterministic: the same code gives the same document (docs/openapi.json is checked against it). */
export function buildOpenApiDocument(api: ApiDescription, version = '0.1.0'): OpenApiDocument {
  const requests = new Components('input');
  const responses = new Components('output');
  for (const [schema, name] of REQUEST_COMPONENTS) requests.name(schema, name);
  for (const [schema, name] of [...COMMON_RESPONSE_COMPONENTS, ...api.schemas]) responses.name(schema, name);

  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  for (const operation of api.operations) {
    const item = paths[operation.path] ?? {};
    if (item[operation.method]) throw new Error(`OpenAPI: ${operation.method.toUpperCase()} ${operation.path} is described twice`);
    paths[operation.path] = { ...item, [operation.method]: buildOperation(operation, requests, responses) };
  }
  // Error answers many operations give alike become components.responses.
  const shared = new SharedResponses();
  const all = Object.values(paths).flatMap((item) => Object.values(item));
  const strip = ({ 'x-shared-name': _name, ...answer }: JsonSchema) => answer;
  for (const operation of all)
    for (const answer of Object.values(operation.responses)) if (answer['x-shared-name']) shared.count(strip(answer));
  for (const operation of all) {
    for (const [status, answer] of Object.entries(operation.responses)) {
      if (answer['x-shared-name']) operation.responses[status] = shared.use(strip(answer), answer['x-shared-name'] as string);
    }
  }

  const requestSchemas = requests.schemas();
  const responseSchemas = responses.schemas();
  for (const [name, schema] of Object.entries(requestSchemas)) {
    if (responseSchemas[name] && JSON.stringify(responseSchemas[name]) !== JSON.stringify(schema))
      throw new Error(`OpenAPI: ${name} differs between requests and responses`);
  }
  const schemas = Object.fromEntries(Object.entries({ ...responseSchemas, ...requestSchemas }).sort(([a], [b]) => a.localeCompare(b)));

  return {
    openapi: '3.1.0',
    info: { title: 'Mail service API', version, description: DESCRIPTION, license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } },
    servers: [
      { url: 'http://127.0.0.1:3000', description: 'The local cloud (`npm start`)' },
      {
        url: 'https://{api_id}.execute-api.{region}.amazonaws.com',
        description: 'A deployment on AWS (the HttpApiUrl output of the stack)',
        variables: { api_id: { default: 'your-api-id' }, region: { default: 'us-east-1' } },
      },
    ],
    tags: api.tags.map((tag) => ({ ...tag })),
    security: [{ apiKey: [] }],
    paths,
    components: {
      schemas,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes the request safe to retry: the same key and body within 24 hours replay the first answer (nothing is done twice); the same key with another body is 409 idempotency_conflict.',
          schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
        },
        BatchValidation: {
          name: 'x-batch-validation',
          in: 'header',
          required: false,
          description:
            'permissive (default): send the valid items, report the others per item; strict: refuse the whole batch (400) when any item is invalid.',
          schema: { type: 'string', enum: ['strict', 'permissive'] },
        },
      },
      headers: {
        RateLimitLimit: { description: 'Requests allowed per window.', schema: { type: 'string', pattern: '^\\d+$' } },
        RateLimitRemaining: {
          description: 'Requests left in the current window after this one.',
          schema: { type: 'string', pattern: '^\\d+$' },
        },
        RateLimitReset: { description: 'Seconds until the window ends.', schema: { type: 'string', pattern: '^\\d+$' } },
        RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'string', pattern: '^\\d+$' } },
        SetSessionCookie: {
          description: 'The session cookie (svc_session: HttpOnly, Secure, SameSite=Lax), or its removal.',
          schema: { type: 'string' },
        },
        Location: { description: 'Where the answer redirects.', schema: { type: 'string' } },
        ContentDisposition: { description: 'attachment; filename="<id>-report.csv" (CSV only).', schema: { type: 'string' } },
      },
      responses: Object.fromEntries(Object.entries(shared.components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'svc_...',
          description: 'An API key (POST /api-keys or the dashboard). The roles listed by an operation are the scopes that may call it.',
        },
        dashboardSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'svc_session',
          description: "The dashboard's session cookie (POST /dashboard/sign-in).",
        },
        csrfToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-CSRF-Token',
          description: "The session's csrf_token, on every state-changing request of a session.",
        },
      },
    },
  };
}
