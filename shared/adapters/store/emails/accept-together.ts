/**
 * Accepting several emails at once (a batch's items: shared/usecases/send/batch-acceptance.ts): the address
 * references of all of them, then the emails, in BatchWriteItems of 25 (../batch-write.ts) instead of a
 * PutItem and a BatchWriteItem each: 100 emails of one recipient are 8 calls instead of 200.
 *
 * Only for an email whose acceptance is its own item alone (no capped reservation, no idempotency record, no
 * tenant's scheduled list: acceptWrite makes one write) and whose id the send core made: a BatchWriteItem put
 * has no condition, and only a caller-chosen id can exist already (SendOptions.emailId). Any other request is
 * accepted on its own (./accept.ts), beside the others.
 *
 * The references go first, so no email is stored without them (an erasure finds every email); a reference
 * whose email is then not written points at nothing, as after a refused conditional put (../erasures.ts).
 * An email DynamoDB still left unprocessed after the retries, or in a call that failed outright, is answered
 * with an error, as a failed PutItem's would be; the other emails are accepted.
 */
import type { RecoveryBounds } from '#shared/domain/reliability/bounds';
import { recipientsNamed } from '#shared/domain/privacy/named-addresses';
import { putRequests, writeInBatches } from '../batch-write';
import { addressRefItems, putAddressRefs } from '../erasures';
import { keys } from '../keys';
import type { Table } from '../table';
import { deferredUsage } from '../usage';
import { acceptBasis, acceptWrite } from './accept-write';
import type { AcceptOutcome, AcceptRequest } from './accept-request';
import { emailTtl } from './email-item';

/** One request's answer: its outcome, or why it was not stored. */
export type TogetherResult = { ok: true; outcome: AcceptOutcome } | { ok: false; error: unknown };

interface Plain {
  index: number;
  item: Record<string, unknown>;
  refs: Record<string, unknown>[];
}

const keyOf = (item: Record<string, unknown>) => `${item.PK}\u0000${item.SK}`;

/** The email's item (its `ttl` given) when its acceptance is that item alone (no transaction), else null. */
export function plainAcceptItem(table: Table, bounds: RecoveryBounds, request: AcceptRequest, ttl: number): Plain['item'] | null {
  if (request.capped.length > 0 || request.idempotency) return null;
  const basis = acceptBasis(request, ttl, deferredUsage(request.email.account_id, request.uncapped, request.count));
  const write = acceptWrite(table, { bounds }, request, basis, []);
  return write.items.length === 1 ? write.put.Item : null;
}

async function plainItem(table: Table, bounds: RecoveryBounds, request: AcceptRequest): Promise<Plain['item'] | null> {
  if (request.capped.length > 0 || request.idempotency) return null;
  return plainAcceptItem(table, bounds, request, await emailTtl(table, request.email, request.retentionDays));
}

/**
 * Accepts the requests (ids made by the send core only, see above), answering each in order; `alone`
 * accepts a request that needs its own transaction.
 */
export async function acceptTogether(
  table: Table,
  bounds: RecoveryBounds,
  requests: readonly AcceptRequest[],
  alone: (request: AcceptRequest) => Promise<AcceptOutcome>,
): Promise<TogetherResult[]> {
  const results: TogetherResult[] = new Array(requests.length);
  const plain: Plain[] = [];
  const others: Promise<void>[] = [];
  for (const [index, request] of requests.entries()) {
    const item = await plainItem(table, bounds, request);
    if (item) {
      const refs = addressRefItems(
        request.email.account_id,
        recipientsNamed(request.email),
        'email',
        keys.email(request.email.id),
        item.ttl as number,
      );
      plain.push({ index, item, refs });
      continue;
    }
    others.push(
      alone(request).then(
        (outcome) => {
          results[index] = { ok: true, outcome };
        },
        (error: unknown) => {
          results[index] = { ok: false, error };
        },
      ),
    );
  }
  await Promise.all([writePlain(table, plain, results), ...others]);
  return results;
}

async function writePlain(table: Table, plain: readonly Plain[], results: TogetherResult[]): Promise<void> {
  if (plain.length === 0) return;
  try {
    await putAddressRefs(
      table,
      plain.flatMap((one) => one.refs),
    );
  } catch (error) {
    for (const one of plain) results[one.index] = { ok: false, error };
    return;
  }
  const { left, error } = await writeInBatches(table, putRequests(plain.map((one) => one.item)));
  const notWritten = new Set(left.map((request) => ('PutRequest' in request ? keyOf(request.PutRequest.Item) : '')));
  for (const one of plain) {
    results[one.index] = notWritten.has(keyOf(one.item))
      ? { ok: false, error: error ?? new Error('BatchWriteItem left the email unprocessed') }
      : { ok: true, outcome: { kind: 'accepted', reserved: [] } };
  }
}
