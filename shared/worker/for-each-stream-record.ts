/**
 * Runs a batch handler over a DynamoDB stream batch and reports partial failures the way stream event
 * sources want them. A stream is ordered: the handler processes the records in order and answers how
 * many leading records are done; the first record after them is reported in `batchItemFailures` (by
 * its sequence number), so the event source checkpoints everything before it and retries from it.
 *
 * Images arrive in AttributeValue form and are unmarshalled here; a record whose image cannot be read
 * ends the batch at that record (the handler sees only the records before it).
 */
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { logError } from '../log';

export interface StreamItem {
  /** The record's SequenceNumber (its batchItemFailures identifier). */
  sequenceNumber: string;
  /** Unique per stream record. */
  eventId: string;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  /** The item after the change (absent for REMOVE, or when the stream view carries no new image). */
  newImage?: Record<string, unknown>;
  /** The item before the change (only with the NEW_AND_OLD_IMAGES view; absent for INSERT). */
  oldImage?: Record<string, unknown>;
}

function toItem(record: DynamoDBRecord): StreamItem {
  const sequenceNumber = record.dynamodb?.SequenceNumber;
  if (!sequenceNumber || !record.eventID || !record.eventName) throw new Error('record without sequence number, event id or event name');
  const image = record.dynamodb?.NewImage;
  const old = record.dynamodb?.OldImage;
  return {
    sequenceNumber,
    eventId: record.eventID,
    eventName: record.eventName,
    ...(image ? { newImage: unmarshall(image as Record<string, AttributeValue>) } : {}),
    ...(old ? { oldImage: unmarshall(old as Record<string, AttributeValue>) } : {}),
  };
}

/**
 * A record that can never be processed (`poison`), or that cannot be read, leading a batch of several
 * would take the records behind it to the on-failure destination with it: then the handler throws, so
 * the event source bisects the batch (bisectBatchOnFunctionError) until that record is alone.
 */
export class PoisonRecordError extends Error {
  constructor(worker: string, sequenceNumber: string | undefined) {
    super(`${worker}: record ${sequenceNumber ?? '?'} can never be processed; failing the batch so it is bisected`);
    this.name = 'PoisonRecordError';
  }
}

export function forEachStreamBatch(worker: string, handle: (items: StreamItem[]) => Promise<{ done: number; poison?: boolean }>) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const records = event.Records;
    const items: StreamItem[] = [];
    for (const record of records) {
      try {
        items.push(toItem(record));
      } catch (error) {
        logError(`${worker}: unreadable stream record`, error, { event_id: record.eventID, sequence_number: record.dynamodb?.SequenceNumber });
        break;
      }
    }
    const result = await handle(items);
    const next = Math.max(0, Math.min(result.done, items.length));
    if (next >= records.length) return { batchItemFailures: [] };
    const poison = result.poison || next === items.length; // the handler's word, or an unreadable record
    if (poison && next === 0 && records.length > 1) throw new PoisonRecordError(worker, records[0]!.dynamodb?.SequenceNumber);
    // The first record not done (an empty identifier, for a record without one, fails the whole batch).
    return { batchItemFailures: [{ itemIdentifier: records[next]!.dynamodb?.SequenceNumber ?? '' }] };
  };
}
