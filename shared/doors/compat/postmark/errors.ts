/**
 * Postmark's error answers (docs/compat.md, "Postmark", "Errors"): `{"ErrorCode": n, "Message": "..."}` with
 * HTTP 401 (ErrorCode 10), 422 (Postmark's API error codes), 429, 500 or 503. Our typed errors (AppError:
 * status, code, details) map to the nearest Postmark code here, in one place, for the single sends (an
 * HTTP answer) and for each failed message of a batch (the code only: a batch answers 200).
 *
 * The mapping, ours -> Postmark's:
 *  - 401 unauthorized, 403 insufficient_scope        -> 401, ErrorCode 10 (bad or missing API token)
 *  - 403 domain_not_verified (domain unknown)         -> 422, 400 (sender signature not found)
 *  - 403 domain_not_verified (added, not verified)    -> 422, 401 (sender signature not confirmed)
 *  - 403 domain_not_allowed (the key's domains)       -> 422, 400
 *  - 403 recipient_not_allowed (sandbox, not unlocked) -> 422, 412 (account pending: own address only)
 *  - 403 other (a paused tenant or account, ...)      -> 422, 405 (not allowed to send)
 *  - 422 a suppressed or opted-out recipient          -> 422, 406 (inactive recipient; its message lists them)
 *  - 400 template.id (no such / unpublished template) -> 422, 1101 (template not found)
 *  - 400 an attachment's blocked extension            -> 422, 411 (forbidden attachment type)
 *  - any other 400 / 404 / 409 / 413 / 422            -> 422, 300 (invalid email request), naming Postmark's fields
 *  - 429 plan_limit (the plan's monthly / daily cap)  -> 422, 405 (not allowed to send: out of credits)
 *  - 429 rate_limited, daily_ramp_limit               -> 429, 429 (with Retry-After)
 *  - 503                                              -> 503, 100 (maintenance: retry later)
 *  - anything else (500, 502, a bug)                  -> 500, 500
 * The door's own refusals (an unknown MessageStream: 1235; a batch over our 100: 410; invalid JSON: 402)
 * are PostmarkFailures, thrown with their code.
 */
import { AppError } from '#shared/domain/errors';
import { fromOurField } from './field-names';

/** The body of every Postmark error answer. */
export interface PostmarkErrorBody {
  ErrorCode: number;
  Message: string;
}

export interface PostmarkErrorAnswer {
  status: 401 | 404 | 422 | 429 | 500 | 503;
  body: PostmarkErrorBody;
  headers?: Record<string, string>;
}

/** Postmark's API error codes this door answers with (postmarkapp.com/developer/api/overview#error-codes). */
export const POSTMARK_CODES = {
  badToken: 10,
  maintenance: 100,
  invalidRequest: 300,
  senderSignatureNotFound: 400,
  senderSignatureNotConfirmed: 401,
  invalidJson: 402,
  notAllowedToSend: 405,
  inactiveRecipient: 406,
  tooManyBatchMessages: 410,
  forbiddenAttachmentType: 411,
  accountPending: 412,
  rateLimited: 429,
  internal: 500,
  templateNotFound: 1101,
  messageStreamNotFound: 1235,
} as const;

/** A refusal of the door itself, already in Postmark's terms. */
export class PostmarkFailure extends Error {
  constructor(
    readonly errorCode: number,
    message: string,
    readonly status: PostmarkErrorAnswer['status'] = 422,
  ) {
    super(message);
    this.name = 'PostmarkFailure';
  }
}

/** What the mapping reads of one of our errors: an AppError, or a failed batch item's `error`. */
export interface OurError {
  status?: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

type Field = { field: string; message: string };

function fieldsOf(details: Record<string, unknown> | undefined): Field[] {
  const fields = details?.fields;
  if (!Array.isArray(fields)) return [];
  return fields.filter((f): f is Field => typeof f?.field === 'string' && typeof f?.message === 'string');
}

const stringList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Postmark's own wording of the inactive-recipient refusal (the SDK's InactiveRecipientsError parses the addresses from it). */
export function inactiveRecipientsMessage(addresses: readonly string[], why: string): string {
  return `You tried to send to recipient(s) that have been marked as inactive. Found inactive addresses: ${addresses.join(', ')}. Inactive recipients are ones that have generated a hard bounce, a spam complaint, or a manual suppression (here: ${why}).`;
}

/** A validation error's message with its fields named as Postmark names them (`To`, `HtmlBody`, `Attachments[0].Name`). */
function invalidRequestMessage(error: OurError): string {
  const fields = fieldsOf(error.details);
  if (fields.length === 0) return error.message;
  return `Invalid email request: ${fields.map((f) => `${fromOurField(f.field)}: ${f.message}`).join('; ')}.`;
}

/** The Postmark code and status of one of our errors (the table in this file's header). */
export function postmarkCodeOf(error: OurError): { status: PostmarkErrorAnswer['status']; errorCode: number; message: string } {
  const { code, details } = error;
  const unprocessable = (errorCode: number, message = error.message) => ({ status: 422 as const, errorCode, message });
  switch (code) {
    case 'unauthorized':
    case 'insufficient_scope':
      return { status: 401, errorCode: POSTMARK_CODES.badToken, message: error.message };
    case 'domain_not_verified':
      return unprocessable(
        details?.status === undefined ? POSTMARK_CODES.senderSignatureNotFound : POSTMARK_CODES.senderSignatureNotConfirmed,
      );
    case 'domain_not_allowed':
      return unprocessable(POSTMARK_CODES.senderSignatureNotFound);
    case 'recipient_not_allowed':
      return unprocessable(POSTMARK_CODES.accountPending);
    case 'forbidden':
    case 'account_paused':
    case 'tenants_not_enabled':
    case 'plan_limit':
      return unprocessable(POSTMARK_CODES.notAllowedToSend);
    case 'rate_limited':
    case 'daily_ramp_limit':
      return { status: 429, errorCode: POSTMARK_CODES.rateLimited, message: error.message };
    case 'service_unavailable':
      return { status: 503, errorCode: POSTMARK_CODES.maintenance, message: error.message };
    case 'validation_error':
    case 'not_found':
    case 'conflict':
    case 'idempotency_conflict':
    case 'limit_exceeded':
    case 'payload_too_large':
      break;
    default:
      return { status: 500, errorCode: POSTMARK_CODES.internal, message: error.message };
  }
  const suppressed = stringList(details?.suppressed);
  if (suppressed.length)
    return unprocessable(POSTMARK_CODES.inactiveRecipient, inactiveRecipientsMessage(suppressed, 'on the suppression list'));
  const optedOut = stringList(details?.category_unsubscribed);
  if (optedOut.length)
    return unprocessable(
      POSTMARK_CODES.inactiveRecipient,
      inactiveRecipientsMessage(optedOut, `unsubscribed from ${String(details?.category ?? 'this')} email`),
    );
  const fields = fieldsOf(details);
  if (fields.some((f) => f.field === 'template.id')) return unprocessable(POSTMARK_CODES.templateNotFound, error.message);
  if (fields.some((f) => /^attachments\.\d+\.filename$/.test(f.field) && /extension/i.test(f.message))) {
    return unprocessable(POSTMARK_CODES.forbiddenAttachmentType, invalidRequestMessage(error));
  }
  return unprocessable(POSTMARK_CODES.invalidRequest, invalidRequestMessage(error));
}

/** The HTTP answer of any error a Postmark route threw. */
export function postmarkErrorAnswer(error: unknown): PostmarkErrorAnswer {
  if (error instanceof PostmarkFailure) return { status: error.status, body: { ErrorCode: error.errorCode, Message: error.message } };
  if (error instanceof AppError) {
    const mapped = postmarkCodeOf(error);
    const body = { ErrorCode: mapped.errorCode, Message: mapped.message };
    return error.headers ? { status: mapped.status, body, headers: error.headers } : { status: mapped.status, body };
  }
  return { status: 500, body: { ErrorCode: POSTMARK_CODES.internal, Message: 'An internal error occurred; retry the request.' } };
}

/** The ErrorCode and Message of a thrown error, for one message of a batch. */
export function postmarkItemError(error: unknown): PostmarkErrorBody {
  return postmarkErrorAnswer(error).body;
}
