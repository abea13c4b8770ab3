/** The mail bucket (S3): large bodies, attachments, raw and received messages, presigned URLs. */
import { createS3Client } from '../adapters/aws/s3-client';
import { S3BlobStore } from '../adapters/aws/s3-blob-store';
import type { Config } from '../config/config';
import { EarlyBodies } from '../usecases/send/early-body';

export function buildBlobs(config: Config) {
  const blobs = new S3BlobStore(createS3Client(config), config.mailBucket);
  // A send's large body put beside its read (one per process: it remembers the callers' retention classes).
  return { blobs, earlyBodies: new EarlyBodies(blobs) };
}

export type BlobServices = ReturnType<typeof buildBlobs>;
