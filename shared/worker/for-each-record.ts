/**
 * Runs a record handler over an SQS batch concurrently and reports failures per record
 * (batchItemFailures), so one bad message never fails or blocks the others. A failing record is
 * redelivered after its visibility timeout and ends in the DLQ after the queue's maxReceiveCount.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logError } from '../log';

export function forEachRecord(worker: string, handle: (record: SQSRecord) => Promise<void>) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const results = await Promise.allSettled(event.Records.map((record) => handle(record)));
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    results.forEach((result, index) => {
      const record = event.Records[index]!;
      if (result.status === 'rejected') {
        logError(`${worker}: record failed`, result.reason, {
          message_id: record.messageId,
          receive_count: record.attributes?.ApproximateReceiveCount,
        });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    });
    return { batchItemFailures };
  };
}
