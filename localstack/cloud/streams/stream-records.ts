/**
 * A DynamoDB Streams record (GetRecords, the SDK's shape) as Lambda hands it to a stream mapping's function
 * in its DynamoDBStreamEvent: epoch seconds, binary as base64 text, the stream's ARN (./stream-poller.ts).
 */
import type { AttributeValue as SdkAttributeValue, _Record } from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { LOCAL_REGION } from '../constants';

function toLambdaValue(value: SdkAttributeValue): AttributeValue {
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  // Lambda events carry binary as base64 text.
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.SS !== undefined) return { SS: value.SS };
  if (value.NS !== undefined) return { NS: value.NS };
  if (value.BS !== undefined) return { BS: value.BS.map((b) => Buffer.from(b).toString('base64')) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaValue) };
  if (value.M !== undefined) return { M: toLambdaImage(value.M)! };
  // The SDK's union deserializer turns an empty map ({"M": {}} on the wire) into {}.
  if (Object.keys(value).length === 0) return { M: {} };
  throw new Error(`unknown attribute value type: ${Object.keys(value).join(',')}`);
}

function toLambdaImage(image: Record<string, SdkAttributeValue> | undefined): Record<string, AttributeValue> | undefined {
  if (!image) return undefined;
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, toLambdaValue(value)]));
}

/** A GetRecords record as Lambda hands it to the function (epoch seconds, base64 binary, the stream ARN). */
export function toLambdaRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const d = record.dynamodb ?? {};
  const dynamodb: NonNullable<DynamoDBRecord['dynamodb']> = {
    ApproximateCreationDateTime: d.ApproximateCreationDateTime
      ? Math.floor(new Date(d.ApproximateCreationDateTime).getTime() / 1000)
      : undefined,
    Keys: toLambdaImage(d.Keys),
    NewImage: toLambdaImage(d.NewImage),
    OldImage: toLambdaImage(d.OldImage),
    SequenceNumber: d.SequenceNumber,
    SizeBytes: d.SizeBytes,
    StreamViewType: d.StreamViewType,
  };
  for (const key of Object.keys(dynamodb) as (keyof typeof dynamodb)[]) if (dynamodb[key] === undefined) delete dynamodb[key];
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: record.eventSource ?? 'aws:dynamodb',
    awsRegion: record.awsRegion ?? LOCAL_REGION,
    dynamodb,
    eventSourceARN: streamArn,
    // TTL deletions are made by the service principal.
    ...(record.userIdentity ? { userIdentity: { type: record.userIdentity.Type, principalId: record.userIdentity.PrincipalId } } : {}),
  };
}
