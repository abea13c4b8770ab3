/**
 * The parts of the OpenAPI document that do not come from the operations: its description (the API's
 * conventions), servers, and the parameter, header and security scheme components the operations point at.
 * Each a fresh object per document.
 */
import { MAX_FINGERPRINT_DEPTH } from '../../domain/emails/idempotency';
import type { JsonSchema, OpenApiDocument } from './document-types';

const DESCRIPTION = `The HTTP API of the mail service: JSON in and out, \`Authorization: Bearer svc_...\`.

- **Authentication**: an API key (\`svc_\`) as a Bearer token; each operation lists the scopes that may call it (\`full\` always may). A missing, malformed, unknown or revoked key is 401 with a body of exactly \`{"error": {"message": "..."}}\`. The dashboard's session cookie (with \`X-CSRF-Token\` on state-changing requests) works on the dashboard's doors only.
- **Errors**: every other error is \`{"error": {"message", "code", "details"?, "hint"?, "upgrade_url"?}}\`; each operation lists the codes it can answer per status. Retry only \`rate_limited\`, \`internal_error\`, \`upstream_error\` and \`service_unavailable\`, with backoff and the same Idempotency-Key.
- **Lists**: \`?limit\` (1-100, default 25) and \`?cursor\` (the previous page's \`next_cursor\`); answers \`{<items>, has_more, next_cursor}\`, newest first.
- **Idempotency**: \`Idempotency-Key\` on POST /emails, /emails/batch and /events; kept 24 hours per account; the same key and body replay the first answer, another body is 409 \`idempotency_conflict\`. Bodies nested more than ${MAX_FINGERPRINT_DEPTH} levels deep are refused with it.
- **Rate limits**: GET /emails answers \`ratelimit-limit\`, \`ratelimit-remaining\` and \`ratelimit-reset\` on every answer and 429 \`rate_limited\` with \`Retry-After\` over the limit.
- **Limits**: a request body is at most 6 MB (413 \`payload_too_large\`); a path segment over 256 bytes is 404.
- Every answer carries \`x-request-id\`: quote it when reporting a problem.`;

export function documentInfo(version: string): OpenApiDocument['info'] {
  return { title: 'Mail service API', version, description: DESCRIPTION, license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } };
}

export function documentServers(): JsonSchema[] {
  return [
    { url: 'http://127.0.0.1:3000', description: 'The local cloud (`npm start`)' },
    {
      url: 'https://{api_id}.execute-api.{region}.amazonaws.com',
      description: 'A deployment on AWS (the HttpApiUrl output of the stack)',
      variables: { api_id: { default: 'your-api-id' }, region: { default: 'us-east-1' } },
    },
  ];
}

/** The request headers operations name (Operation.requestHeaders). */
export function parameterComponents(): Record<string, JsonSchema> {
  return {
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
  };
}

/** The response headers answers name (./response-headers.ts). */
export function headerComponents(): Record<string, JsonSchema> {
  return {
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
  };
}

export function securitySchemes(): Record<string, JsonSchema> {
  return {
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
  };
}
