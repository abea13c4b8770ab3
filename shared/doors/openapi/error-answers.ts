/**
 * The error answers of an operation: every error it can answer (its own and those of its kind), each status
 * described with its codes, in the error envelope (401: a message only), with the headers a refusal carries.
 * An answer several operations give alike is named (`x-shared-name`) to become a shared component
 * (./shared-responses.ts).
 */
import type { ErrorCode } from '../../domain/errors';
import type { JsonSchema } from './document-types';
import { exampleError } from './examples';
import type { Operation, ResponseHeader } from './operation';
import { pascal } from './pascal-case';
import { headersOf } from './response-headers';
import { ref } from './schema-ref';

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

const errorResponseName = (operation: Operation, status: number, codes: readonly string[]) =>
  status === 401
    ? `Error401${pascal(operation.auth)}`
    : `Error${status}${codes.map((code) => code.split('_').map(pascal).join('')).join('Or')}`;

/** The operation's error answers added to `answers`: a status it also answers with success is one answer describing both. */
export function addErrorAnswers(operation: Operation, answers: Record<string, JsonSchema>): void {
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
}
