/**
 * The send core's outcome -> SendGrid's answer. SendGrid answers an accepted mail/send `202` with an empty
 * body and the `X-Message-Id` header; here that is the id of the first email (one per personalization:
 * GET /emails lists the others). Like SendGrid, which accepts a send to a suppressed address and drops it
 * (a `dropped` event), a send the core refused only because its recipients are suppressed or opted out
 * (422 with the kept email's id: shared/usecases/send/refuse-blocked.ts) is accepted here: the email is
 * recorded as failed and `email.suppressed` fires. Any other failure is SendGrid's error (./errors.ts).
 * Pure.
 */
import { AppError, type ErrorCode } from '#shared/domain/errors';
import type { BatchResponse } from '#shared/usecases/send/send-batch';
import { sendgridError, statusOfCode, type SendgridErrorAnswer } from './errors';

export type SendgridOutcome = { kind: 'accepted'; messageId: string } | { kind: 'error'; answer: SendgridErrorAnswer };

/** SendGrid's header naming the accepted message. */
export const MESSAGE_ID_HEADER = 'X-Message-Id';

/** The kept email's id when an error is only a suppressed or opted-out recipient (SendGrid: accepted, dropped). */
export function droppedEmailId(code: string, details: Record<string, unknown> | undefined): string | null {
  if (code !== 'validation_error' || !details) return null;
  const blocked = details.suppressed !== undefined || details.category_unsubscribed !== undefined;
  return blocked && typeof details.email_id === 'string' ? details.email_id : null;
}

/** A single send's error (sendEmail threw it). */
export function outcomeOfError(error: unknown): SendgridOutcome {
  if (error instanceof AppError) {
    const dropped = droppedEmailId(error.code, error.details);
    if (dropped !== null) return { kind: 'accepted', messageId: dropped };
  }
  return { kind: 'error', answer: sendgridError(error) };
}

/**
 * A batch's results (one per personalization). All accepted (or dropped): 202 with the first id. Otherwise
 * the first failure's error, naming its personalization; when other personalizations were accepted, the
 * message says which (they were sent: a retry of the whole request would send them again).
 */
export function outcomeOfBatch(response: BatchResponse): SendgridOutcome {
  const accepted: { index: number; id: string }[] = [];
  let failure: BatchResponse['data'][number] | null = null;
  for (const item of [...response.data].sort((a, b) => a.index - b.index)) {
    if (item.status !== 'failed' && item.id) {
      accepted.push({ index: item.index, id: item.id });
      continue;
    }
    const dropped = item.error ? droppedEmailId(item.error.code, item.error.details) : null;
    if (dropped !== null) accepted.push({ index: item.index, id: dropped });
    else failure ??= item;
  }
  if (!failure) {
    if (accepted.length === 0) return { kind: 'error', answer: sendgridError(new Error('empty batch')) };
    return { kind: 'accepted', messageId: accepted[0]!.id };
  }
  const error = failure.error ?? { code: 'internal_error', message: 'The email could not be sent.' };
  const sent = accepted.length
    ? ` Personalizations ${accepted.map((a) => `${a.index} (${a.id})`).join(', ')} were accepted and will be sent.`
    : '';
  const appError = new AppError(
    statusOfCode(error.code),
    error.code as ErrorCode,
    `personalizations.${failure.index}: ${error.message}${sent}`,
    { ...(error.details ? { details: error.details } : {}) },
  );
  const answer = sendgridError(appError, failure.index);
  if (sent)
    answer.body.errors = answer.body.errors.map((item) =>
      item.message.includes('were accepted') ? item : { ...item, message: `${item.message}${sent}` },
    );
  return { kind: 'error', answer };
}
