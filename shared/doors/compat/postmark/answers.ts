/**
 * Postmark's success answers: one message -> `{To, SubmittedAt, MessageID, ErrorCode: 0, Message: "OK"}`;
 * a batch -> an array, one entry per message in order, each that answer or its own `{ErrorCode, Message}`
 * (Postmark's batch answers 200 whatever became of each message). MessageID is our email id (msg_...):
 * GET /emails/{MessageID} reads it, and every webhook names it.
 */
import type { BatchItemResult } from '#shared/usecases/send/send-batch';
import { postmarkCodeOf, postmarkItemError, type PostmarkErrorBody } from './errors';

export interface PostmarkSent {
  To: string;
  SubmittedAt: string;
  MessageID: string;
  ErrorCode: 0;
  Message: 'OK';
}

/** Postmark's batch entry for a failed message; To when it was given, as Postmark echoes it. */
export type PostmarkBatchFailure = PostmarkErrorBody & { To?: string };
export type PostmarkBatchEntry = PostmarkSent | PostmarkBatchFailure;

export function sentAnswer(to: string | null | undefined, messageId: string, submittedAt: Date): PostmarkSent {
  return { To: to ?? '', SubmittedAt: submittedAt.toISOString(), MessageID: messageId, ErrorCode: 0, Message: 'OK' };
}

/** What became of each message before the batch core: mapped (its send request) or refused by the door. */
export type PreparedMessage = { to: string | null | undefined } & ({ request: Record<string, unknown> } | { refused: unknown });

/** One batch entry per message: the door's refusals, and the batch core's results for the others, in order. */
export function batchAnswer(
  prepared: readonly PreparedMessage[],
  results: readonly BatchItemResult[],
  submittedAt: Date,
): PostmarkBatchEntry[] {
  let next = 0;
  return prepared.map((message) => {
    const echo = message.to ? { To: message.to } : {};
    if ('refused' in message) return { ...postmarkItemError(message.refused), ...echo };
    const result = results[next++];
    if (!result) return { ErrorCode: 500, Message: 'This message was not sent; retry it.', ...echo };
    if (result.status !== 'failed' && result.id) return sentAnswer(message.to, result.id, submittedAt);
    const mapped = postmarkCodeOf(result.error ?? { code: 'internal_error', message: 'This message was not sent; retry it.' });
    return { ErrorCode: mapped.errorCode, Message: mapped.message, ...echo };
  });
}
