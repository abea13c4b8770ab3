/**
 * The one place typed errors become HTTP responses with the spec's envelope:
 * {error: {message, code?, details?, hint?, docs_url?, upgrade_url?}}; 401 carries only message.
 */
import { AppError } from '../domain/errors';

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

/** `headers`: response headers a typed error carries (e.g. Retry-After on 429 rate_limited). */
export function errorResponse(error: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (error instanceof AppError) {
    if (error.status === 401) return { status: 401, body: { error: { message: error.message } }, ...(error.headers ? { headers: error.headers } : {}) };
    return {
      status: error.status,
      ...(error.headers ? { headers: error.headers } : {}),
      body: {
        error: {
          message: error.message,
          code: error.code,
          ...(error.details ? { details: error.details } : {}),
          ...(error.hint ? { hint: error.hint } : {}),
          ...(error.upgradeUrl ? { upgrade_url: error.upgradeUrl } : {}),
        },
      },
    };
  }
  return {
    status: 500,
    body: { error: { message: 'An internal error occurred. Retry with backoff; if it persists, contact support with the request id.', code: 'internal_error' } },
  };
}
