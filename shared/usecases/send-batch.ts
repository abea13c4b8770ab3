/**
 * POST /emails/batch: up to 100 sends, each through the same send use case, answered index-aligned.
 * One bad item never sinks the others. With an Idempotency-Key the whole batch replays: each item
 * carries a derived key written in its own email's transaction (so a retried or concurrent batch
 * creates every email once), and the batch's response is stored under the key itself.
 */
import { rejectAttachmentsInBatch } from '../domain/emails/attachments';
import { requestFingerprint, type Idempotency } from '../domain/emails/idempotency';
import { sendRequestSchema, type SendRequest } from '../domain/emails/send-request';
import { AppError, ConflictError, ValidationError } from '../domain/errors';
import { issuesToFields } from '../http/validate';
import { mapBounded } from '../concurrency';
import { logError } from '../log';
import type { Principal } from './principal';
import { sendEmail, type SendEmailDeps } from './send-email';

export const MAX_BATCH = 100;
/** Items sent at once within one batch. */
const ITEM_CONCURRENCY = 8;

export interface BatchItemResult {
  index: number;
  id: string | null;
  status: 'sent' | 'scheduled' | 'failed';
  error?: { message: string; code: string; details?: Record<string, unknown> };
}

export interface BatchResponse {
  data: BatchItemResult[];
}

/** Derived per-item keys use a separator no client key can contain (keys are printable ASCII). */
const itemKey = (key: string, index: number) => `${key}\u0000${index}`;

function failure(index: number, error: unknown): BatchItemResult {
  if (error instanceof AppError) {
    const details = error.details;
    const emailId = typeof details?.email_id === 'string' ? details.email_id : null;
    return { index, id: emailId, status: 'failed', error: { message: error.message, code: error.code, ...(details ? { details } : {}) } };
  }
  logError('batch item failed', error, { index });
  return { index, id: null, status: 'failed', error: { message: 'An internal error occurred for this item; retry it.', code: 'internal_error' } };
}

async function sendItem(deps: SendEmailDeps, principal: Principal, item: unknown, index: number, idempotency: Idempotency | undefined): Promise<BatchItemResult> {
  try {
    const attachmentProblem = rejectAttachmentsInBatch(item);
    if (attachmentProblem) throw new ValidationError(attachmentProblem, { details: { fields: [{ field: 'attachments', message: attachmentProblem }] } });
    const parsed = sendRequestSchema.safeParse(item);
    if (!parsed.success) {
      const fields = issuesToFields(parsed.error.issues);
      throw new ValidationError(`Invalid email: check ${[...new Set(fields.map((f) => f.field))].join(', ')}.`, { details: { fields } });
    }
    const result = await sendEmail(deps, principal, parsed.data as SendRequest, {
      idempotency: idempotency ? { key: itemKey(idempotency.key, index), fingerprint: requestFingerprint('emails/batch/item', item) } : undefined,
    });
    return { index, id: result.id, status: result.status };
  } catch (error) {
    return failure(index, error);
  }
}

export function validateBatchShape(body: unknown): unknown[] {
  const emails = (body as { emails?: unknown } | null)?.emails;
  if (!Array.isArray(emails)) {
    throw new ValidationError('The body must be {"emails": [...]}.', { details: { fields: [{ field: 'emails', message: 'an array of emails is required' }] } });
  }
  if (emails.length === 0 || emails.length > MAX_BATCH) {
    throw new ValidationError(`A batch holds 1 to ${MAX_BATCH} emails; this one has ${emails.length}.`, {
      details: { fields: [{ field: 'emails', message: `1-${MAX_BATCH} items` }] },
    });
  }
  return emails;
}

export async function sendBatch(deps: SendEmailDeps, principal: Principal, items: unknown[], idempotency?: Idempotency): Promise<BatchResponse> {
  const now = deps.clock.now();
  const replay = async (): Promise<BatchResponse | null> => {
    if (!idempotency) return null;
    const record = await deps.idempotency.get(principal.account.id, idempotency.key, now);
    if (!record) return null;
    if (record.fingerprint !== idempotency.fingerprint) {
      throw new ConflictError('This Idempotency-Key was already used with a different request body.', 'idempotency_conflict', {
        details: { idempotency_key: idempotency.key, first_used_at: record.created_at },
      });
    }
    return record.body as BatchResponse;
  };
  const previous = await replay();
  if (previous) return previous;

  const data = await mapBounded(
    items.map((item, index) => ({ item, index })),
    ITEM_CONCURRENCY,
    ({ item, index }) => sendItem(deps, principal, item, index, idempotency),
  );
  const response: BatchResponse = { data };
  if (idempotency) {
    const stored = await deps.idempotency.put(principal.account.id, idempotency.key, { fingerprint: idempotency.fingerprint, status: 200, body: response, created_at: now.toISOString() }, now);
    // A concurrent batch with the same key stored first: its items are the same emails; answer as it did.
    if (!stored) return (await replay()) ?? response;
  }
  return response;
}
