/**
 * Typed errors of the domain. Each carries the HTTP status and the spec's error code; the HTTP layer
 * (shared/doors/http/errors.ts) turns them into the error envelope in one place.
 */
export type ErrorCode =
  | 'validation_error'
  | 'unauthorized'
  | 'forbidden'
  | 'insufficient_scope'
  | 'not_found'
  | 'conflict'
  | 'idempotency_conflict'
  | 'plan_limit'
  /** A fixed per-account cap that no plan raises (e.g. webhook endpoints). */
  | 'limit_exceeded'
  /** 413: a file or message larger than a size limit (attachments, SES's message size). */
  | 'payload_too_large'
  | 'rate_limited'
  | 'tenants_not_enabled'
  /** 403: the account is paused (the reputation brake, or an operator): no send is accepted. */
  | 'account_paused'
  | 'daily_ramp_limit'
  | 'domain_not_allowed'
  | 'domain_not_verified'
  | 'recipient_not_allowed'
  | 'not_configured'
  | 'upstream_error'
  | 'service_unavailable'
  | 'internal_error';

export interface ErrorOptions {
  details?: Record<string, unknown>;
  hint?: string;
  upgradeUrl?: string;
  cause?: unknown;
  /** Response headers the error carries (e.g. Retry-After); shared/doors/http/errors.ts sets them. */
  headers?: Record<string, string>;
}

export class AppError extends Error {
  readonly details?: Record<string, unknown>;
  readonly hint?: string;
  readonly upgradeUrl?: string;
  readonly headers?: Record<string, string>;

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    options: ErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.details = options.details;
    this.hint = options.hint;
    this.upgradeUrl = options.upgradeUrl;
    this.headers = options.headers;
  }
}

/** 401. Its body carries only the message (spec, Authentication 2). */
export class UnauthorizedError extends AppError {
  constructor(message: string) {
    super(401, 'unauthorized', message);
  }
}

export class ValidationError extends AppError {
  constructor(message: string, options: ErrorOptions = {}) {
    super(400, 'validation_error', message, options);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string, code: ErrorCode = 'forbidden', options: ErrorOptions = {}) {
    super(403, code, message, options);
  }
}

export class InsufficientScopeError extends AppError {
  constructor(required: readonly string[], granted: readonly string[]) {
    super(403, 'insufficient_scope', `This API key lacks the scope needed here: one of ${required.join(', ')}.`, {
      details: { required_scopes: [...required], key_scopes: [...granted] },
      hint: 'Create a key with the needed scope (POST /api-keys) or use a full-access key.',
    });
  }
}

export class NotFoundError extends AppError {
  constructor(what: string, id?: string) {
    super(404, 'not_found', id ? `${what} ${id} was not found.` : `${what} was not found.`);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code: ErrorCode = 'conflict', options: ErrorOptions = {}) {
    super(409, code, message, options);
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: string, options: ErrorOptions = {}) {
    super(503, 'service_unavailable', message, options);
  }
}

export class UpstreamError extends AppError {
  constructor(message: string, options: ErrorOptions = {}) {
    super(502, 'upstream_error', message, options);
  }
}

/**
 * 429 rate_limited: too many requests in the current window; `Retry-After` says when to try again.
 * `subject` names what is counted ("for this account"; the sign-in's "for this email address").
 */
export class RateLimitedError extends AppError {
  constructor(limit: number, windowSeconds: number, retryAfterSeconds: number, subject = 'for this account') {
    super(
      429,
      'rate_limited',
      `Too many requests: at most ${limit} per ${windowSeconds === 1 ? 'second' : `${windowSeconds} seconds`} ${subject}. Retry after ${retryAfterSeconds} s.`,
      {
        details: { limit, window_seconds: windowSeconds, retry_after: retryAfterSeconds },
        hint: 'Slow down: wait for Retry-After seconds, and keep concurrent requests below the limit.',
        headers: { 'Retry-After': String(retryAfterSeconds) },
      },
    );
  }
}

/**
 * 422 validation_error: a send with `validate: true` names recipients whose domain takes no mail (no mail
 * host, or a null MX): each with why (docs/deliverability.md, "Address validation"). Nothing is stored.
 */
export class UndeliverableRecipientsError extends AppError {
  constructor(refused: readonly { email: string; reason: string }[]) {
    const list = refused.map((recipient) => `${recipient.email} (${recipient.reason})`).join(', ');
    super(422, 'validation_error', `${refused.length === 1 ? 'A recipient cannot' : 'Some recipients cannot'} receive mail: ${list}.`, {
      details: { reason: 'undeliverable_recipients', recipients: refused },
      hint: 'Correct or remove these addresses (POST /validations checks an address before a send), or send without `validate`.',
    });
  }
}

/**
 * 500 internal_error: an answer larger than a Lambda can return (6 MB: shared/doors/http/lambda-response-budget.ts).
 * Endpoints size their answers to stay under it (links, pages, truncation), so reaching this is our bug,
 * not the caller's: it is the envelope in place of API Gateway's bare 500, with the sizes in `details`.
 */
export class ResponseTooLargeError extends AppError {
  constructor(payloadBytes: number, limitBytes: number) {
    super(
      500,
      'internal_error',
      `The answer (${payloadBytes} bytes as a Lambda payload) is larger than an API response can be (${limitBytes} bytes).`,
      {
        details: { reason: 'response_too_large', payload_bytes: payloadBytes, limit_bytes: limitBytes },
        hint: 'Ask for fewer items (a smaller limit) and fetch large content by its download links; report this with the request id.',
      },
    );
  }
}
