/** The mail bucket (S3): large bodies, attachments, raw and received messages, presigned URLs. */
import { createS3Client } from '../adapters/aws/s3-client';
import { S3BlobStore } from '../adapters/aws/s3-blob-store';
import type { Config } from '../config/config';

export function buildBlobs(config: Config) {
  return { blobs: new S3BlobStore(createS3Client(config), config.mailBucket) };
}

export type BlobServices = ReturnType<typeof buildBlobs>;
