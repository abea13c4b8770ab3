/**
 * Whole-store scans for tests that prove nothing of a value is left (erasure, redaction, retention): every
 * item of the table and every object of the mail bucket whose bytes name a value, case-insensitive. A test
 * may scan; the product never does (docs/erasure.md says how it finds what names an address). A file that
 * scans runs on a stack of its own (harness/own-stack.ts): late in the suite the shared stack's table holds
 * about 22,000 items, and each scan of it took 7-8 s of DynamoDB Local's and the test worker's CPU.
 */
import { GetObjectCommand, ListBucketsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { stack } from './stack';
import { documentClient } from './usage';

/** A value as text for the scan: a set's members, and a binary attribute's bytes read as latin1 (a relay email's raw message). */
function readable(_key: string, value: unknown): unknown {
  if (value instanceof Set) return [...value];
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1');
  return value;
}

/** Every table item whose marshalled bytes (binary ones as latin1) name `needle`. */
export async function itemsNaming(needle: string): Promise<Record<string, unknown>[]> {
  const client = documentClient();
  const found: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  try {
    do {
      const page = await client.send(new ScanCommand({ TableName: stack().info.env.TABLE_NAME, ExclusiveStartKey: start }));
      for (const item of page.Items ?? []) {
        const bytes = JSON.stringify(item, readable).toLowerCase();
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
        const bytes = Buffer.from(await body.Body!.transformToByteArray())
          .toString('latin1')
          .toLowerCase();
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

/**
 * The forms an address may be stored in: as written, lower- and upper-case (matched case-insensitively),
 * URL-encoded (`%40`), quoted-printable and RFC 2047 Q-encoded (`=40`), JSON-escaped (`\u0040`), and base64
 * and base64url of each case of it at each of the three alignments it may start at inside a longer base64
 * text (an encoded word, a MIME part, a token), matched exactly.
 */
export function encodedForms(address: string): { caseless: string[]; exact: string[] } {
  const cases = [...new Set([address, address.toLowerCase(), address.toUpperCase()])];
  const caseless = [address, encodeURIComponent(address), address.replace('@', '=40'), address.replace('@', '\\u0040')].map((form) =>
    form.toLowerCase(),
  );
  const exact: string[] = [];
  for (const text of cases) {
    for (const offset of [0, 1, 2]) {
      const bytes = Buffer.concat([Buffer.alloc(offset, 'x'), Buffer.from(text, 'utf8')]);
      const start = [0, 2, 3][offset]!;
      const end = Math.floor((bytes.length * 8) / 6);
      for (const encoding of ['base64', 'base64url'] as const) exact.push(bytes.toString(encoding).slice(start, end));
    }
  }
  return { caseless: [...new Set(caseless)], exact: [...new Set(exact)] };
}

/**
 * Where any form of `address` (encodedForms) is left: table items (their keys) and objects of every bucket (bucket/key), each with the form found.
 */
export async function tracesOf(
  address: string,
): Promise<{ items: { PK: string; SK: string; type: unknown; form: string }[]; objects: { key: string; form: string }[] }> {
  const { caseless, exact } = encodedForms(address);
  const found = (text: string): string | undefined => {
    const lower = text.toLowerCase();
    return caseless.find((form) => lower.includes(form)) ?? exact.find((form) => text.includes(form));
  };
  const items: { PK: string; SK: string; type: unknown; form: string }[] = [];
  const client = documentClient();
  let start: Record<string, unknown> | undefined;
  try {
    do {
      const page = await client.send(new ScanCommand({ TableName: stack().info.env.TABLE_NAME, ExclusiveStartKey: start }));
      for (const item of page.Items ?? []) {
        const form = found(
          JSON.stringify(item, (_key, value) =>
            value instanceof Set ? [...value] : value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : value,
          ),
        );
        if (form) items.push({ PK: String(item.PK), SK: String(item.SK), type: item.type, form });
      }
      start = page.LastEvaluatedKey;
    } while (start);
  } finally {
    client.destroy();
  }
  const { info } = stack();
  const s3 = new S3Client({ endpoint: info.endpoints.s3, region: info.region, forcePathStyle: true });
  const objects: { key: string; form: string }[] = [];
  try {
    const buckets = (await s3.send(new ListBucketsCommand({}))).Buckets ?? [];
    for (const bucket of buckets) {
      let token: string | undefined;
      do {
        const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket.Name!, ContinuationToken: token }));
        for (const object of listed.Contents ?? []) {
          const body = await s3.send(new GetObjectCommand({ Bucket: bucket.Name!, Key: object.Key! }));
          const form = found(Buffer.from(await body.Body!.transformToByteArray()).toString('latin1')) ?? found(object.Key!);
          if (form) objects.push({ key: `${bucket.Name}/${object.Key}`, form });
        }
        token = listed.NextContinuationToken;
      } while (token);
    }
  } finally {
    s3.destroy();
  }
  return { items, objects };
}
