/**
 * Runs a record handler over an SQS batch concurrently and reports failures per record
 * (batchItemFailures), so one bad message never fails or blocks the others. A failing record is
 * redelivered after its visibility timeout and ends in the DLQ after the queue's maxReceiveCount.
 *
 * Each body is parsed with the queue's schema (shared/domain/messages.ts), JSON first, as Powertools'
 * parser does: the handler receives the typed message, and a body that does not parse is logged and
 * reported as a failure of its record alone, without calling the handler.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import { logError } from '../../lib/log';

/** A body that is not JSON, or not the queue's message. */
export class MalformedMessage extends Error {
  override readonly name = 'MalformedMessage';
}

export function parseBody<S extends z.ZodType>(schema: S, body: string): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new MalformedMessage('body is not JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
    throw new MalformedMessage(`body is not a valid message: ${issues.join('; ')}`);
  }
  return parsed.data;
}

export function forEachRecord<S extends z.ZodType>(
  worker: string,
  schema: S,
  handle: (message: z.output<S>, record: SQSRecord) => Promise<void>,
) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const results = await Promise.allSettled(event.Records.map(async (record) => handle(parseBody(schema, record.body), record)));
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    results.forEach((result, index) => {
      const record = event.Records[index]!;
      if (result.status === 'rejected') {
        const malformed = result.reason instanceof MalformedMessage;
        logError(`${worker}: ${malformed ? 'malformed record' : 'record failed'}`, result.reason, {
          message_id: record.messageId,
          receive_count: record.attributes?.ApproximateReceiveCount,
        });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    });
    return { batchItemFailures };
  };
}
