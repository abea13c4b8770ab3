/**
 * The one place typed errors become HTTP responses with the spec's envelope:
 * {error: {message, code?, details?, hint?, docs_url?, upgrade_url?}}; 401 carries only message.
 */
import { AppError } from '../../domain/errors';

export interface ErrorBody {
  error: {
    message: string;
    code?: string;
    details?: Record<string, unknown>;
    hint?: string;
    docs_url?: string;
    upgrade_url?: string;
  };
}

/**
 * At most this many `details.fields` are answered; `details.fields_total` then says how many there were.
 * A body of 100,000 wrong items (the OpenAPI fuzzer sent one) had one problem each: a 12 MB answer, past
 * what an API Gateway response may carry (docs/api.md, "Errors").
 */
export const MAX_ANSWERED_FIELDS = 100;

function boundedDetails(details: Record<string, unknown>): Record<string, unknown> {
  const fields = details.fields;
  if (!Array.isArray(fields) || fields.length <= MAX_ANSWERED_FIELDS) return details;
  return { ...details, fields: fields.slice(0, MAX_ANSWERED_FIELDS), fields_total: fields.length };
}

/** `headers`: response headers a typed error carries (e.g. Retry-After on 429 rate_limited). */
export function errorResponse(error: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (error instanceof AppError) {
    if (error.status === 401)
      return { status: 401, body: { error: { message: error.message } }, ...(error.headers ? { headers: error.headers } : {}) };
    return {
      status: error.status,
      ...(error.headers ? { headers: error.headers } : {}),
      body: {
        error: {
          message: error.message,
          code: error.code,
          ...(error.details ? { details: boundedDetails(error.details) } : {}),
          ...(error.hint ? { hint: error.hint } : {}),
          ...(error.upgradeUrl ? { upgrade_url: error.upgradeUrl } : {}),
        },
      },
    };
  }
  return {
    status: 500,
    body: {
      error: {
        message: 'An internal error occurred. Retry with backoff; if it persists, contact support with the request id.',
        code: 'internal_error',
      },
    },
  };
}
