/**
 * POST /emails/batch: up to 100 sends, each through the same send use case, answered index-aligned; their
 * emails written together, 25 at a time (./batch-acceptance.ts), instead of a write of each.
 * One bad item never sinks the others; a batch whose items with `validate: true` name more recipient
 * domains than one request may look up is refused whole (400, nothing sent: checkBatchLookupBound). With an Idempotency-Key the whole batch replays: each item
 * carries a derived key written in its own email's transaction (so a retried or concurrent batch
 * creates every email once), and the batch's response is stored under the key itself.
 */
import { rejectAttachmentsInBatch } from '../../domain/emails/attachments';
import { requestFingerprint, type Idempotency } from '../../domain/emails/idempotency';
import { sendRequestSchema, type SendRequest } from '../../domain/emails/send-request';
import { AppError, ValidationError } from '../../domain/errors';
import { fieldNames, issuesToFields } from '../../domain/request-validation';
import { mapBounded } from '../../lib/concurrency';
import { logError } from '../../lib/log';
import type { Principal } from '../access/principal';
import { IdempotencyKeyTaken, withIdempotency } from './idempotency';
import { sendEmail, type SendDeps } from './send-email';
import { recipientAddresses } from './policy';
import { checkLookupBound, lookupDomains } from '../../domain/address-validation/lookup-bound';
import type { IdempotencyStore } from '../../adapters/store/idempotency';
import type { SendContextReader } from '../../adapters/store/send-context';
import { normaliseEmail } from '../../domain/mail/address';
import type { ClearedRecipients } from './cleared-recipients';
import type { EmailAcceptance } from '../../adapters/store/emails/accept';
import { BatchAcceptance } from './batch-acceptance';

export type SendBatchDeps = SendDeps & {
  /** The items' accepts written together (./batch-acceptance.ts). */
  emails: Pick<EmailAcceptance, 'acceptTogether'>;
  idempotency: Pick<IdempotencyStore, 'get' | 'put'>;
  /**
   * The account's suppression list read once for every item's recipients (absent: each item reads its own).
   * Items sent account-wide are handed those found on it as cleared, so an item's own read skips them.
   */
  sendContext?: Pick<SendContextReader, 'suppressedAmong'>;
};

export const MAX_BATCH = 100;
/** Items sent at once within one batch: a BatchWriteItem's worth of emails is written together (./batch-acceptance.ts). */
const ITEM_CONCURRENCY = 25;

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
  return {
    index,
    id: null,
    status: 'failed',
    error: { message: 'An internal error occurred for this item; retry it.', code: 'internal_error' },
  };
}

/** An item as the batch read it: the body given, and its parse (once per item, for every step of the batch). */
interface BatchItem {
  item: unknown;
  index: number;
  parsed: ReturnType<typeof sendRequestSchema.safeParse>;
}

const recipientsOf = (request: Pick<SendRequest, 'to' | 'cc' | 'bcc'>) =>
  recipientAddresses([request.to, request.cc ?? [], request.bcc ?? []]);

async function sendItem(
  deps: SendDeps,
  principal: Principal,
  { item, index, parsed }: BatchItem,
  idempotency: Idempotency | undefined,
  cleared: ((recipients: string[]) => ClearedRecipients | undefined) | undefined,
): Promise<BatchItemResult> {
  try {
    const attachmentProblem = rejectAttachmentsInBatch(item);
    if (attachmentProblem)
      throw new ValidationError(attachmentProblem, { details: { fields: [{ field: 'attachments', message: attachmentProblem }] } });
    if (!parsed.success) {
      const fields = issuesToFields(parsed.error.issues);
      throw new ValidationError(`Invalid email: check ${fieldNames(fields)}.`, { details: { fields } });
    }
    const clearedRecipients = parsed.data.tenant === undefined ? cleared?.(recipientsOf(parsed.data)) : undefined;
    const result = await sendEmail(deps, { principal }, parsed.data, {
      idempotency: idempotency
        ? { key: itemKey(idempotency.key, index), fingerprint: requestFingerprint('emails/batch/item', item) }
        : undefined,
      ...(clearedRecipients ? { clearedRecipients } : {}),
    });
    return { index, id: result.id, status: result.status };
  } catch (error) {
    return failure(index, error);
  }
}

/** How a batch treats invalid items (header `x-batch-validation`, as Resend): strict refuses the whole batch. */
export type BatchValidation = 'strict' | 'permissive';

/**
 * The batch's items: `{"emails": [...]}` (the spec) or a bare array (what the resend SDK's batch.send
 * posts). 1 to MAX_BATCH items.
 */
export function validateBatchShape(body: unknown): unknown[] {
  const emails = Array.isArray(body) ? body : (body as { emails?: unknown } | null)?.emails;
  if (!Array.isArray(emails)) {
    throw new ValidationError('The body must be {"emails": [...]} or an array of emails.', {
      details: { fields: [{ field: 'emails', message: 'an array of emails is required' }] },
    });
  }
  if (emails.length === 0 || emails.length > MAX_BATCH) {
    throw new ValidationError(`A batch holds 1 to ${MAX_BATCH} emails; this one has ${emails.length}.`, {
      details: { fields: [{ field: 'emails', message: `1-${MAX_BATCH} items` }] },
    });
  }
  return emails;
}

/**
 * Strict validation: every item must pass the send request schema before anything is sent; otherwise 400
 * naming each invalid item's fields as `emails.<index>.<field>` (nothing is sent).
 */
export function validateBatchStrictly(items: readonly unknown[]): void {
  const fields: { field: string; message: string }[] = [];
  items.forEach((item, index) => {
    const attachmentProblem = rejectAttachmentsInBatch(item);
    if (attachmentProblem) fields.push({ field: `emails.${index}.attachments`, message: attachmentProblem });
    const parsed = sendRequestSchema.safeParse(item);
    if (!parsed.success)
      fields.push(...issuesToFields(parsed.error.issues).map((f) => ({ field: `emails.${index}.${f.field}`, message: f.message })));
  });
  if (fields.length)
    throw new ValidationError(`Invalid batch (strict validation): check ${fieldNames(fields)}. Nothing was sent.`, { details: { fields } });
}

/**
 * The request's lookup bound (shared/domain/address-validation/lookup-bound.ts): the distinct recipient domains of
 * the items with `validate: true`, at most MAX_LOOKUP_DOMAINS, or 400 before anything is sent.
 */
export function checkBatchLookupBound(items: readonly Pick<BatchItem, 'parsed'>[]): void {
  const addresses = items.flatMap(({ parsed }) => (parsed.success && parsed.data.validate ? recipientsOf(parsed.data) : []));
  checkLookupBound(lookupDomains(addresses));
}

/**
 * The items' recipients checked against the account's suppression list in one read (every 50 addresses one
 * BatchGetItem, at once), for the items that send account-wide (no `tenant`, a key not limited to one): each
 * is then handed the recipients found on it as cleared (ClearedRecipients: its own read skips them; one whose
 * send turns out to be a tenant's reads them all again). Undefined when there is nothing to read this way.
 */
async function clearedByOneRead(
  deps: SendBatchDeps,
  principal: Principal,
  items: readonly BatchItem[],
): Promise<((recipients: string[]) => ClearedRecipients | undefined) | undefined> {
  if (!deps.sendContext || principal.credential.tenant) return undefined;
  const recipients = items.flatMap(({ parsed }) => (parsed.success && parsed.data.tenant === undefined ? recipientsOf(parsed.data) : []));
  if (recipients.length === 0) return undefined;
  const suppressed = await deps.sendContext.suppressedAmong(principal.account.id, recipients);
  return (addresses) => {
    const clear = addresses.filter((address) => !suppressed.has(normaliseEmail(address)));
    return clear.length ? { tenantId: null, addresses: clear } : undefined;
  };
}

export async function sendBatch(
  deps: SendBatchDeps,
  principal: Principal,
  items: unknown[],
  idempotency?: Idempotency,
  validation: BatchValidation = 'permissive',
): Promise<BatchResponse> {
  const now = deps.clock.now();
  return withIdempotency(deps, principal.account.id, idempotency, now, async () => {
    if (validation === 'strict') validateBatchStrictly(items);
    const batch: BatchItem[] = items.map((item, index) => ({ item, index, parsed: sendRequestSchema.safeParse(item) }));
    checkBatchLookupBound(batch);
    const cleared = await clearedByOneRead(deps, principal, batch);
    const together = new BatchAcceptance(deps.emails);
    const itemDeps: SendDeps = { ...deps, emails: together.emails };
    const data = await mapBounded(batch, ITEM_CONCURRENCY, (one) =>
      together.item(() => sendItem(itemDeps, principal, one, idempotency, cleared)),
    );
    const response: BatchResponse = { data };
    if (idempotency) {
      const stored = await deps.idempotency.put(
        principal.account.id,
        idempotency.key,
        { fingerprint: idempotency.fingerprint, status: 200, body: response, created_at: now.toISOString() },
        now,
      );
      // A concurrent batch with the same key stored first: its items are the same emails; answer as it did.
      if (!stored) throw new IdempotencyKeyTaken();
    }
    return response;
  });
}
