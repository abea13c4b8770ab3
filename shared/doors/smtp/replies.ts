/**
 * The SMTP relay's one place where refusals become replies: the counterpart of shared/doors/http/errors.ts.
 * Every refusal of the send core is a typed AppError (status + code); this maps it to an SMTP reply code
 * and an enhanced status code (RFC 3463), with the AppError's message (and its hint) as the text.
 * Refusals of the SMTP conversation itself (address syntax, recipient count, login throttling) are
 * `SmtpRefusal`s, carrying their reply as is. Anything else is 451 4.3.0 and reveals nothing.
 *
 * | AppError                                   | reply      | why                                        |
 * |--------------------------------------------|------------|--------------------------------------------|
 * | 401 unauthorized                           | 535 5.7.8  | credentials invalid (or revoked)           |
 * | 403 (domain, recipient, scope, tenant)     | 550 5.7.1  | not authorized: fix the sender/recipient   |
 * | 422 suppressed recipient                   | 550 5.1.1  | the address may not be mailed (its reason) |
 * | 422 other (opt-out, refused content)       | 550 5.7.1 / 5.6.0 |                                     |
 * | 429 daily limit, daily ramp, rate limit    | 451 4.7.1  | try again later (the limit resets)         |
 * | 429 monthly plan limit                     | 550 5.7.1  | will not pass before next month: bounce it |
 * | 413 payload_too_large                      | 552 5.3.4  | message too big                            |
 * | 400, 404, 409 (the message is wrong)       | 550 5.6.0  | fix the message; a retry fails the same    |
 * | 503, 502, anything else                    | 451 4.3.0  | try again                                  |
 */
import { AppError } from '../../domain/errors';

export interface SmtpReply {
  /** Three-digit reply code. */
  code: number;
  /** Enhanced status code, e.g. 5.7.1. */
  enhanced: string;
  /** One line of text. */
  text: string;
}

/** A refusal of the SMTP conversation itself, with its reply as is. */
export class SmtpRefusal extends Error {
  constructor(
    readonly code: number,
    readonly enhanced: string,
    text: string,
  ) {
    super(text);
    this.name = 'SmtpRefusal';
  }
}

/** One line: no line breaks or control characters, bounded (a reply line is at most 512 octets). */
function oneLine(text: string, max = 400): string {
  const line = text
    .replace(/[\x00-\x1f\x7f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function withHint(error: AppError): string {
  return error.hint ? `${error.message} ${error.hint}` : error.message;
}

const TEMPORARY = 'Temporary local problem; nothing was sent. Try again later.';

export function replyFor(error: unknown): SmtpReply {
  if (error instanceof SmtpRefusal) return { code: error.code, enhanced: error.enhanced, text: oneLine(error.message) };
  if (!(error instanceof AppError)) return { code: 451, enhanced: '4.3.0', text: TEMPORARY };
  const reply = (code: number, enhanced: string, text = withHint(error)): SmtpReply => ({ code, enhanced, text: oneLine(text) });
  switch (error.status) {
    case 401:
      return reply(535, '5.7.8', error.message);
    case 403:
      return reply(550, '5.7.1');
    case 422: {
      const suppressed = error.details?.suppressed;
      if (Array.isArray(suppressed) && suppressed.length) return reply(550, '5.1.1');
      if (Array.isArray(error.details?.category_unsubscribed)) return reply(550, '5.7.1');
      return reply(550, '5.6.0');
    }
    case 429:
      // A monthly cap lasts weeks: a permanent refusal makes the client bounce it back to its sender now.
      if (error.code === 'plan_limit' && error.details?.period === 'month') return reply(550, '5.7.1');
      return reply(451, '4.7.1');
    case 413:
      return reply(552, '5.3.4');
    case 400:
    case 404:
    case 409:
      return reply(550, '5.6.0');
    case 503:
    case 502:
      return reply(451, '4.3.0', error.message);
    default:
      return { code: 451, enhanced: '4.3.0', text: TEMPORARY };
  }
}

/**
 * The reply as the error smtp-server's handlers take: `responseCode`, and the text starting with the
 * enhanced status code (the relay server writes such a text as is: ./relay-server.ts).
 */
export function smtpErrorOf(error: unknown): Error & { responseCode: number } {
  const reply = replyFor(error);
  return Object.assign(new Error(`${reply.enhanced} ${reply.text}`), { responseCode: reply.code });
}

/** The text of a reply that already starts with its enhanced status code. */
export const ENHANCED_PREFIX = /^[245]\.\d{1,3}\.\d{1,3} /;
