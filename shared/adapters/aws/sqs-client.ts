/**
 * The SQS client (./client-options.ts).
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import type { Config } from '../../config/config';
import { withClientHooks } from './client-hooks';
import { clientOptions } from './client-options';

export function createSqsClient(config: Config): SQSClient {
  return withClientHooks(new SQSClient(clientOptions(config, 'sqs')));
}
