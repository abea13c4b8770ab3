/**
 * One record of the table's stream, decoded at the edge: the Lambda event's record (AttributeValue
 * images) is checked and unmarshalled into a StreamWrite, which the worker's reader turns into the named
 * changes its use case switches on (stream-changes.ts lists them all). Keys, images and event names stop
 * here: a use case only ever sees `StreamRecordChanges`.
 *
 * A record that cannot be read is `malformed`, reported without its content (its keys, event id and
 * what failed). What happens to it then is the reader's: `stop` ends the batch at that record (it is
 * reported as never processable, bisected out and sent to the on-failure queue after its retries, as an
 * unreadable record always was), `skip` passes it as a record with no changes. A record without a
 * sequence number, event id or event name, or whose images do not unmarshall, always stops.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod';
import { StoredItemError } from './decode';

/** What a reader sees of one record: the write, its item before and after. Never leaves the store. */
export interface StreamWrite {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  /** The item after the change (absent for REMOVE, or when the stream view carries no new image). */
  newImage?: Record<string, unknown>;
  /** The item before the change (only with the NEW_AND_OLD_IMAGES view; absent for INSERT). */
  oldImage?: Record<string, unknown>;
}

/** An image that is not what its reader expects (the message names fields, never their values). */
export class MalformedImage extends Error {
  override readonly name = 'MalformedImage';
}

/** Turns the writes one worker cares about into its changes (none for the others). */
export interface StreamReader<C> {
  /** What a malformed record does to the batch (see the top of this file). */
  readonly onMalformed: 'stop' | 'skip';
  /** Throws MalformedImage (or a model's StoredItemError, decode.ts) for a write it should read and cannot. */
  changesOf(write: StreamWrite): C[];
}

/** The changes one stream record stands for, in stream order (`changes` is empty for a record of no interest). */
export interface StreamRecordChanges<C> {
  /** The record's SequenceNumber (its batchItemFailures identifier). */
  sequenceNumber: string;
  /** Unique per stream record (tokens of idempotent writes derive from it). */
  eventId: string;
  changes: C[];
}

/** A record decoded: its changes (also for a skipped malformed one), and what was wrong with it, if anything. */
export interface DecodedStreamRecord<C> {
  /** Absent when the batch stops at this record. */
  record?: StreamRecordChanges<C>;
  malformed?: { reason: string; keys?: string };
}

const image = z
  .record(
    z.string(),
    z.custom<AttributeValue>((value) => typeof value === 'object' && value !== null),
  )
  .optional();

const envelope = z.object({
  eventID: z.string().min(1, 'no event id'),
  eventName: z.enum(['INSERT', 'MODIFY', 'REMOVE']),
  dynamodb: z.object({ SequenceNumber: z.string().min(1, 'no sequence number'), NewImage: image, OldImage: image }),
});

/** The zod issues as `path: message` (zod's messages name expectations, not the values it saw). */
export function issuesOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(image)'}: ${issue.message}`).join('; ');
}

/** The image as `schema` reads it; throws MalformedImage otherwise. */
export function parseImage<S extends z.ZodType>(schema: S, item: unknown): z.output<S> {
  const parsed = schema.safeParse(item);
  if (!parsed.success) throw new MalformedImage(issuesOf(parsed.error));
  return parsed.data;
}

/** The record's key as `PK / SK`, for the log line of a malformed record. */
function keysOf(record: DynamoDBRecord): string | undefined {
  try {
    const keys = record.dynamodb?.Keys ? unmarshall(record.dynamodb.Keys as Record<string, AttributeValue>) : undefined;
    return keys ? `${String(keys.PK)} / ${String(keys.SK)}` : undefined;
  } catch {
    return undefined;
  }
}

function writeOf(record: z.output<typeof envelope>): StreamWrite {
  const { NewImage, OldImage } = record.dynamodb;
  return {
    eventName: record.eventName,
    ...(NewImage ? { newImage: unmarshall(NewImage) } : {}),
    ...(OldImage ? { oldImage: unmarshall(OldImage) } : {}),
  };
}

export function decodeStreamRecord<C>(record: DynamoDBRecord, reader: StreamReader<C>): DecodedStreamRecord<C> {
  const parsed = envelope.safeParse(record);
  if (!parsed.success) return { malformed: { reason: `unreadable record: ${issuesOf(parsed.error)}`, keys: keysOf(record) } };
  const { eventID: eventId, dynamodb } = parsed.data;
  let write: StreamWrite;
  try {
    write = writeOf(parsed.data);
  } catch (error) {
    return { malformed: { reason: `unreadable image: ${(error as Error).message}`, keys: keysOf(record) } };
  }
  try {
    return { record: { sequenceNumber: dynamodb.SequenceNumber, eventId, changes: reader.changesOf(write) } };
  } catch (error) {
    if (!(error instanceof MalformedImage) && !(error instanceof StoredItemError)) throw error;
    const malformed = { reason: error.message, keys: keysOf(record) };
    return reader.onMalformed === 'skip'
      ? { record: { sequenceNumber: dynamodb.SequenceNumber, eventId, changes: [] }, malformed }
      : { malformed };
  }
}
