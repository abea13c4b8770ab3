/**
 * Idempotency for any door (POST /emails, POST /emails/batch, the SMTP relay): a live record for the key
 * replays its answer; the same key with another request is 409; a concurrent request with the same key
 * that wins the write makes this one replay the winner's answer. The record itself is written by `run`
 * (in the email's own transaction for a send), which throws IdempotencyKeyTaken when it lost that race.
 */
import type { Idempotency } from '../../domain/emails/idempotency';
import { ConflictError, ServiceUnavailableError } from '../../domain/errors';
import type { IdempotencyRecord, IdempotencyStore } from '../../adapters/store/idempotency';

/** Thrown by `run` when another request stored its record under the key first. */
export class IdempotencyKeyTaken extends Error {
  constructor() {
    super('idempotency key taken');
    this.name = 'IdempotencyKeyTaken';
  }
}

/**
 * Thrown by the send when the email of a caller-chosen id (SendOptions.emailId) exists already: it was sent
 * before, and nothing was stored again. The caller answers with that email.
 */
export class EmailExists extends Error {
  constructor(readonly emailId: string) {
    super(`email ${emailId} exists already`);
    this.name = 'EmailExists';
  }
}

export interface IdempotencyDeps {
  idempotency: Pick<IdempotencyStore, 'get'>;
}

/** The 409 for a key whose record was stored by another request body. */
export function idempotencyConflict(idempotency: Idempotency, record: IdempotencyRecord): ConflictError {
  return new ConflictError('This Idempotency-Key was already used with a different request body.', 'idempotency_conflict', {
    details: { idempotency_key: idempotency.key, first_used_at: record.created_at },
    hint: 'Use a new key for a new request; reuse a key only to retry the very same request.',
  });
}

function replayOf<T>(record: IdempotencyRecord, idempotency: Idempotency): T {
  if (record.fingerprint !== idempotency.fingerprint) throw idempotencyConflict(idempotency, record);
  return record.body as T;
}

/**
 * Runs `run` at most once per key. `prefetched` is the record when the caller already read it (the send
 * path reads it in its context batch); undefined means "read it here".
 */
export async function withIdempotency<T>(
  deps: IdempotencyDeps,
  accountId: string,
  idempotency: Idempotency | undefined,
  now: Date,
  run: () => Promise<T>,
  prefetched?: IdempotencyRecord | null,
): Promise<T> {
  if (!idempotency) return run();
  const existing = prefetched !== undefined ? prefetched : await deps.idempotency.get(accountId, idempotency.key, now);
  if (existing) return replayOf<T>(existing, idempotency);
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof IdempotencyKeyTaken)) throw error;
    const winner = await deps.idempotency.get(accountId, idempotency.key, now);
    if (winner) return replayOf<T>(winner, idempotency);
    throw new ServiceUnavailableError('A concurrent request with the same Idempotency-Key is in progress; retry.', { cause: error });
  }
}
