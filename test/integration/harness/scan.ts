/**
 * Whole-store scans for tests that prove nothing of a value is left (erasure, redaction, retention): every
 * item of the table and every object of the mail bucket whose bytes name a value, case-insensitive. A test
 * may scan; the product never does (docs/erasure.md says how it finds what names an address).
 */
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { stack } from './stack';
import { documentClient } from './usage';

/** Every table item whose marshalled bytes name `needle`. */
export async function itemsNaming(needle: string): Promise<Record<string, unknown>[]> {
  const client = documentClient();
  const found: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  try {
    do {
      const page = await client.send(new ScanCommand({ TableName: stack().info.env.TABLE_NAME, ExclusiveStartKey: start }));
      for (const item of page.Items ?? []) {
        const bytes = JSON.stringify(item, (_key, value) => (value instanceof Set ? [...value] : value)).toLowerCase();
        if (bytes.includes(needle.toLowerCase())) found.push(item);
      }
      start = page.LastEvaluatedKey;
    } while (start);
  } finally {
    client.destroy();
  }
  return found;
}

/** Every object of the mail bucket (under `prefix`) whose key or bytes (read as latin1) name one of `needles`. */
export async function objectsNaming(needles: string | string[], prefix = ''): Promise<string[]> {
  const wanted = (Array.isArray(needles) ? needles : [needles]).map((needle) => needle.toLowerCase());
  const { info } = stack();
  const s3 = new S3Client({ endpoint: info.endpoints.s3, region: info.region, forcePathStyle: true });
  const found: string[] = [];
  let token: string | undefined;
  try {
    do {
      const listed = await s3.send(new ListObjectsV2Command({ Bucket: info.env.MAIL_BUCKET, Prefix: prefix, ContinuationToken: token }));
      for (const object of listed.Contents ?? []) {
        const body = await s3.send(new GetObjectCommand({ Bucket: info.env.MAIL_BUCKET, Key: object.Key! }));
        const bytes = Buffer.from(await body.Body!.transformToByteArray()).toString('latin1').toLowerCase();
        const key = object.Key!.toLowerCase();
        if (wanted.some((needle) => bytes.includes(needle) || key.includes(needle))) found.push(object.Key!);
      }
      token = listed.NextContinuationToken;
    } while (token);
  } finally {
    s3.destroy();
  }
  return found;
}
