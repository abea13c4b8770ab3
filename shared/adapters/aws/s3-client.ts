/**
 * The S3 client (./client-options.ts): path-style addressing against an endpoint override.
 */
import { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config/config';
import { withClientHooks } from './client-hooks';
import { clientOptions } from './client-options';

export function createS3Client(config: Config): S3Client {
  return withClientHooks(new S3Client({ ...clientOptions(config, 's3'), forcePathStyle: Boolean(config.endpoints.s3) }));
}
