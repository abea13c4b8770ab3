/**
 * Mailgun's answers (docs/compat.md, "Mailgun"): `200 {"id": "<msg_...@domain>", "message": "Queued. Thank
 * you."}`, and its error shapes: `{"message": ...}` with 400, 403, 404, 413, 429 (Retry-After kept), a
 * plain-text `Forbidden` 401. Our typed errors (AppError: status and code) are mapped here, in one place:
 *
 * - 400 validation_error -> 400, the message naming Mailgun's fields (`h:X-Foo`, `o:tag`, ...);
 * - 401 -> 401 `Forbidden` (text/plain, as Mailgun);
 * - 403 domain_not_verified for a domain this account does not have -> 404 `Domain not found: <domain>`;
 *   other 403s (an unverified domain, the sandbox's recipients, a key's scope) -> 403 {"message"};
 * - 422 for a suppressed or opted-out recipient (the email is kept, failed, with its id) -> 200 queued, as
 *   Mailgun accepts such a message and drops it (its `failed` event; ours email.suppressed);
 * - other 422s -> 400; 404, 413, 429 as they are; 409 -> 400; 5xx -> 500 or 503 {"message"}.
 * Pure.
 */
import { AppError, type ErrorCode } from '#shared/domain/errors';

export const QUEUED_MESSAGE = 'Queued. Thank you.';

export interface MailgunAnswer {
  status: number;
  /** A JSON body, or Mailgun's plain-text 401. */
  body: { id: string; message: string; failed?: { to: string; message: string }[] } | { message: string } | string;
  headers?: Record<string, string>;
}

/** Mailgun's id: a Message-ID form of our email id (strip `<` and `@domain>` to get `msg_...`). */
export const messageIdOf = (emailId: string, domain: string) => `<${emailId}@${domain}>`;

/** The email id in a Mailgun id (`<msg_...@domain>` -> `msg_...`); the id itself when it has no such form. */
export const emailIdOf = (mailgunId: string) => /^<([^@>]+)@[^>]*>$/.exec(mailgunId.trim())?.[1] ?? mailgunId;

export function queued(emailId: string, domain: string): MailgunAnswer {
  return { status: 200, body: { id: messageIdOf(emailId, domain), message: QUEUED_MESSAGE } };
}

export const domainNotFound = (domain: string): MailgunAnswer => ({ status: 404, body: { message: `Domain not found: ${domain}` } });

export const UNAUTHORIZED: MailgunAnswer = { status: 401, body: 'Forbidden' };

/** Our field names as the Mailgun request named them. */
export function mailgunFieldOf(field: string): string {
  const [head, ...rest] = field.split('.');
  // A batch's strict validation names `emails.<index>.<field>`: the field is the same for every recipient.
  if (head === 'emails' && /^\d+$/.test(rest[0] ?? '')) return mailgunFieldOf(rest.slice(1).join('.'));
  switch (head) {
    case 'headers':
      return rest.length ? `h:${rest.join('.')}` : 'h:';
    case 'tags':
      return 'o:tag / v:';
    case 'scheduled_at':
      return 'o:deliverytime';
    case 'attachments':
      return 'attachment';
    case 'reply_to':
      return 'h:Reply-To';
    case 'tenant':
      return 'X-Mailgun-On-Behalf-Of';
    case 'template':
      return rest[0] === 'variables' ? 't:variables' : 'template';
    default:
      return head ?? field;
  }
}

/** A 400's message: each field as Mailgun names it with what is wrong (Mailgun's own messages as they are). */
function validationMessage(error: AppError): string {
  const fields = (error.details?.fields ?? []) as { field: string; message: string }[];
  if (!Array.isArray(fields) || fields.length === 0) return error.message;
  return fields
    .map(({ field, message }) => {
      const name = mailgunFieldOf(field);
      return message.includes(`'${name}'`) || message.includes(name) ? message : `${name}: ${message}`;
    })
    .join('; ');
}

/** Whether a 422 is a refused recipient (suppressed or opted out) whose failed email was kept. */
const suppressedEmailId = (error: AppError): string | null =>
  error.status === 422 && typeof error.details?.email_id === 'string' ? error.details.email_id : null;

/** Our status and code as Mailgun's status (for a batch item's error, which carries the code only). */
const STATUS_OF_CODE: Partial<Record<ErrorCode, number>> = {
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  insufficient_scope: 403,
  tenants_not_enabled: 403,
  account_paused: 403,
  domain_not_allowed: 403,
  domain_not_verified: 403,
  recipient_not_allowed: 403,
  not_found: 404,
  conflict: 409,
  idempotency_conflict: 409,
  payload_too_large: 413,
  plan_limit: 429,
  limit_exceeded: 429,
  daily_ramp_limit: 429,
  rate_limited: 429,
  service_unavailable: 503,
};

/** A batch item's error ({code, message, details}) as the AppError it was. */
export function appErrorOf(item: { code: string; message: string; details?: Record<string, unknown> }): AppError {
  const status = STATUS_OF_CODE[item.code as ErrorCode] ?? 500;
  return new AppError(
    item.details?.email_id !== undefined && item.code === 'validation_error' ? 422 : status,
    item.code as ErrorCode,
    item.message,
    item.details ? { details: item.details } : {},
  );
}

/** Any error of the door as Mailgun's answer (`domain`: the path's). */
export function errorAnswer(error: unknown, domain: string): MailgunAnswer {
  if (!(error instanceof AppError))
    return { status: 500, body: { message: 'Internal error: retry the request; report it with the X-Request-Id if it persists.' } };
  const headers = error.headers;
  const answer = (status: number, message: string): MailgunAnswer => ({ status, body: { message }, ...(headers ? { headers } : {}) });
  const suppressed = suppressedEmailId(error);
  if (suppressed) return queued(suppressed, domain);
  switch (error.status) {
    case 400:
      return answer(400, validationMessage(error));
    case 401:
      return UNAUTHORIZED;
    case 403:
      if (error.code === 'domain_not_verified' && error.details?.domain_id === undefined && typeof error.details?.domain === 'string') {
        return domainNotFound(error.details.domain);
      }
      return answer(403, error.message);
    case 404:
    case 413:
    case 429:
    case 503:
      return answer(error.status, error.message);
    case 409:
    case 422:
      return answer(400, validationMessage(error));
    default:
      return error.status >= 500 ? answer(500, error.message) : answer(400, error.message);
  }
}
