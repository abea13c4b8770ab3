/**
 * Everything in a test stack's table and bucket, for tests on a stack of their own that move its clock and
 * check what is left (retention, the adoption of an older release's records). Import it after pointing
 * TEST_STACK_DATA_DIR at that stack (it reads ./stack on first use). A test may scan; the product never does.
 */
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { stack } from './stack';
import { documentClient } from './usage';

/** Every item of the table. */
export async function tableItems(): Promise<Record<string, any>[]> {
  const client = documentClient();
  const items: Record<string, any>[] = [];
  let start: Record<string, any> | undefined;
  try {
    do {
      const page = await client.send(new ScanCommand({ TableName: stack().info.env.TABLE_NAME, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
  } finally {
    client.destroy();
  }
  return items;
}

/** The mail bucket's keys under `prefix` (the first 1,000), as listed. */
export async function bucketKeys(prefix = ''): Promise<string[]> {
  const { info } = stack();
  const s3 = new S3Client({ endpoint: info.endpoints.s3, region: info.region, forcePathStyle: true });
  try {
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: info.env.MAIL_BUCKET, Prefix: prefix }));
    return (listed.Contents ?? []).map((object) => object.Key!);
  } finally {
    s3.destroy();
  }
}
