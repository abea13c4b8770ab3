/**
 * Runs a batch handler over a DynamoDB stream batch and reports partial failures the way stream event
 * sources want them. A stream is ordered: the handler processes the records in order and answers how
 * many leading records are done; the first record after them is reported in `batchItemFailures` (by
 * its sequence number), so the event source checkpoints everything before it and retries from it.
 *
 * Each record is decoded here by the worker's reader (shared/adapters/store/stream-record.ts) into the named
 * changes it stands for: the handler sees changes, never images. A malformed record is logged with its
 * keys (never its content); the reader says whether it is skipped (a record without changes) or ends
 * the batch at that record (the handler sees only the records before it, and the record is poison).
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { decodeStreamRecord, type StreamReader, type StreamRecordChanges } from '../../adapters/store/stream-record';
import { logError } from '../../lib/log';

/**
 * A record that can never be processed (one that stopped the batch) leading a batch of several would take the records behind it to the on-failure destination with it: then the handler throws, so
 * the event source bisects the batch (bisectBatchOnFunctionError) until that record is alone.
 */
export class PoisonRecordError extends Error {
  constructor(worker: string, sequenceNumber: string | undefined) {
    super(`${worker}: record ${sequenceNumber ?? '?'} can never be processed; failing the batch so it is bisected`);
    this.name = 'PoisonRecordError';
  }
}

export function forEachStreamBatch<C>(
  worker: string,
  reader: StreamReader<C>,
  handle: (records: StreamRecordChanges<C>[]) => Promise<{ done: number }>,
) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const records = event.Records;
    const decoded: StreamRecordChanges<C>[] = [];
    for (const record of records) {
      const { record: changes, malformed } = decodeStreamRecord(record, reader);
      if (malformed) {
        logError(`${worker}: malformed stream record${changes ? ' (skipped)' : ''}`, new Error(malformed.reason), {
          event_id: record.eventID,
          sequence_number: record.dynamodb?.SequenceNumber,
          keys: malformed.keys,
        });
      }
      if (!changes) break;
      decoded.push(changes);
    }
    const result = await handle(decoded);
    const next = Math.max(0, Math.min(result.done, decoded.length));
    if (next >= records.length) return { batchItemFailures: [] };
    // Not done because the record there stopped the batch (a transient failure of the handler is retried as is).
    const poison = next === decoded.length;
    if (poison && next === 0 && records.length > 1) throw new PoisonRecordError(worker, records[0]!.dynamodb?.SequenceNumber);
    // The first record not done (an empty identifier, for a record without one, fails the whole batch).
    return { batchItemFailures: [{ itemIdentifier: records[next]!.dynamodb?.SequenceNumber ?? '' }] };
  };
}
