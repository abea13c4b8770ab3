/**
 * Records of the table's stream as a stream worker's Lambda gets them (images in AttributeValue form,
 * marshalled from items), and their changes as a reader decodes them (shared/adapters/store/stream-record.ts).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { decodeStreamRecord, type StreamReader, type StreamRecordChanges } from '#shared/adapters/store/stream-record';

type Image = Record<string, unknown>;
type LambdaImage = NonNullable<NonNullable<DynamoDBRecord['dynamodb']>['NewImage']>;

let sequence = 0;

const wire = (item: Image) => marshall(item, { removeUndefinedValues: true }) as Record<string, AttributeValue> as LambdaImage;

/** One record: an INSERT has a new image, a REMOVE an old one, a MODIFY both (or only the new one). */
export function streamRecord(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  images: { newImage?: Image; oldImage?: Image },
  id = String(++sequence),
): DynamoDBRecord {
  const item = images.newImage ?? images.oldImage;
  return {
    eventID: `ev-${id}`,
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: id.padStart(21, '0'),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
      ...(item?.PK !== undefined ? { Keys: wire({ PK: item.PK, SK: item.SK }) } : {}),
      ...(images.newImage ? { NewImage: wire(images.newImage) } : {}),
      ...(images.oldImage ? { OldImage: wire(images.oldImage) } : {}),
    },
  };
}

export const inserted = (newImage: Image, id?: string) => streamRecord('INSERT', { newImage }, id);
export const modified = (oldImage: Image | undefined, newImage: Image, id?: string) =>
  streamRecord('MODIFY', { newImage, ...(oldImage ? { oldImage } : {}) }, id);
export const removed = (oldImage: Image, id?: string) => streamRecord('REMOVE', { oldImage }, id);

/** An email item as the send path writes it (queued, one recipient), with `fields` over it. */
export function emailItem(id: string, fields: Image = {}): Record<string, any> {
  return {
    PK: `EMAIL#${id}`,
    SK: 'EMAIL',
    type: 'email',
    id,
    status: 'queued',
    account_id: 'acc_x',
    from: 'a@x.test',
    to: ['r@y.test'],
    cc: [],
    bcc: [],
    reply_to: [],
    subject: 's',
    last_event: 'queued',
    tags: [],
    headers: {},
    created_at: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}

/** The records' changes as the worker's reader decodes them (a record that stops the batch throws). */
export function decodeAll<C>(reader: StreamReader<C>, records: readonly DynamoDBRecord[]): StreamRecordChanges<C>[] {
  return records.map((record) => {
    const decoded = decodeStreamRecord(record, reader);
    if (!decoded.record) throw new Error(`record ${record.eventID} stops the batch: ${decoded.malformed?.reason}`);
    return decoded.record;
  });
}

/** The changes of one record. */
export function changesOf<C>(reader: StreamReader<C>, record: DynamoDBRecord): C[] {
  return decodeAll(reader, [record])[0]!.changes;
}
