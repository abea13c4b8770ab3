/**
 * SendGrid's error answers: `{"errors": [{"message", "field", "help"}]}` with the statuses SendGrid uses
 * on mail/send (400 bad request, 401 bad key, 403 not allowed, 413 too large, 429 too many, 5xx ours).
 * Our typed errors (AppError: status and code) become that body here, in one place; the fields our send
 * core names (`to.0`, `emails.1.from`) are renamed to SendGrid's (./field-names.ts), and `help` carries our
 * hint (SendGrid's is a link or null). A suppressed recipient is not an error at SendGrid (it accepts the
 * request and drops the message): ./answer.ts handles that before anything reaches this module.
 */
import { AppError, ValidationError, type ErrorCode } from '#shared/domain/errors';
import { sendgridFieldOf } from './field-names';

export interface SendgridErrorItem {
  message: string;
  field: string | null;
  help: string | null;
}

export interface SendgridErrorBody {
  errors: SendgridErrorItem[];
}

export interface SendgridErrorAnswer {
  status: 400 | 401 | 403 | 404 | 405 | 413 | 429 | 500 | 502 | 503;
  body: SendgridErrorBody;
  headers?: Record<string, string>;
}

/** At most this many errors are answered (a body with thousands of bad items has as many problems). */
export const MAX_ANSWERED_ERRORS = 100;

/** A 400 whose fields are already named as SendGrid names them (the request's own schema, the mapping). */
export class SendgridRequestError extends ValidationError {
  constructor(readonly problems: { field: string | null; message: string }[]) {
    super(problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join('; ') || 'Bad request.', {
      details: { fields: problems },
    });
  }
}

/** The status SendGrid uses for each of our codes (mail/send has no 404 or 409 of its own: those are a bad request). */
const STATUS_OF: Record<ErrorCode, SendgridErrorAnswer['status']> = {
  validation_error: 400,
  not_found: 400,
  conflict: 400,
  idempotency_conflict: 400,
  unauthorized: 401,
  forbidden: 403,
  insufficient_scope: 403,
  tenants_not_enabled: 403,
  account_paused: 403,
  domain_not_allowed: 403,
  domain_not_verified: 403,
  recipient_not_allowed: 403,
  payload_too_large: 413,
  rate_limited: 429,
  plan_limit: 429,
  daily_ramp_limit: 429,
  limit_exceeded: 429,
  not_configured: 503,
  service_unavailable: 503,
  upstream_error: 502,
  internal_error: 500,
};

/** The field a policy refusal is about, as SendGrid names it. */
function fieldOfCode(code: ErrorCode, personalization: number): string | null {
  if (code === 'domain_not_verified' || code === 'domain_not_allowed') return 'from';
  if (code === 'recipient_not_allowed') return `personalizations.${personalization}.to`;
  return null;
}

const INTERNAL_MESSAGE = 'An internal error occurred. Retry with backoff; if it persists, report it with the X-Request-Id of the answer.';

/**
 * Any error as SendGrid's answer. `personalization` is the personalization the error is about (the
 * batch item's index; 0 for a request of one), used to name its fields.
 */
export function sendgridError(error: unknown, personalization = 0): SendgridErrorAnswer {
  if (!(error instanceof AppError)) return { status: 500, body: { errors: [{ message: INTERNAL_MESSAGE, field: null, help: null }] } };
  const status = error.status === 401 ? 401 : (STATUS_OF[error.code] ?? (error.status >= 500 ? 500 : 400));
  const headers = error.headers ? { headers: error.headers } : {};
  const help = error.hint ?? null;
  if (error instanceof SendgridRequestError) {
    return {
      status: 400,
      body: { errors: error.problems.slice(0, MAX_ANSWERED_ERRORS).map((p) => ({ message: p.message, field: p.field, help: null })) },
    };
  }
  const fields = Array.isArray(error.details?.fields) ? (error.details.fields as { field?: unknown; message?: unknown }[]) : [];
  if (status === 400 && fields.length > 0) {
    const errors = fields.slice(0, MAX_ANSWERED_ERRORS).map((f) => ({
      message: typeof f.message === 'string' ? f.message : error.message,
      field: sendgridFieldOf(typeof f.field === 'string' ? f.field : '', personalization),
      help,
    }));
    return { status, body: { errors }, ...headers };
  }
  const message = status >= 500 && error.status >= 500 && error.code === 'internal_error' ? INTERNAL_MESSAGE : error.message;
  return { status, body: { errors: [{ message, field: fieldOfCode(error.code, personalization), help }] }, ...headers };
}

/** The status of one of our codes at SendGrid (a batch item's failure carries only the code). */
export function statusOfCode(code: string): number {
  return STATUS_OF[code as ErrorCode] ?? 400;
}

/** SendGrid's 404 for a path it does not have. */
export function notFoundAnswer(): SendgridErrorAnswer {
  return { status: 404, body: { errors: [{ message: 'resource not found', field: null, help: null }] } };
}

/** SendGrid's 405 for another method on /v3/mail/send. */
export function methodNotAllowedAnswer(method: string): SendgridErrorAnswer {
  return { status: 405, body: { errors: [{ message: `${method} is not allowed on /v3/mail/send: use POST.`, field: null, help: null }] } };
}
