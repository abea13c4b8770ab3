/**
 * The KMS client, with the conventions of ./client-options.ts (region from the config, fail-fast timeouts,
 * 3 attempts). Kept out of createAwsClients so only the functions that seal or open secrets build it.
 * Config has no KMS endpoint: on LocalStack and on the embedded cloud (its KMS emulator,
 * localstack/emulators/kms) the SDK reads AWS_ENDPOINT_URL_KMS (or AWS_ENDPOINT_URL) itself.
 */
import { KMSClient } from '@aws-sdk/client-kms';
import type { Config } from '../../config/config';
import { REQUEST_HANDLER_OPTIONS } from './request-handler';
import { withClientHooks } from './client-hooks';

export function createKmsClient(config: Pick<Config, 'region'>): KMSClient {
  return withClientHooks(
    new KMSClient({
      region: config.region,
      requestHandler: REQUEST_HANDLER_OPTIONS,
      maxAttempts: 3,
    }),
  );
}
