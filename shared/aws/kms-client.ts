/**
 * The KMS client, with the conventions of ./client-factories.ts (region from the config, fail-fast timeouts,
 * 3 attempts). Kept out of createAwsClients so only the functions that seal or open secrets build it.
 * Config has no KMS endpoint: on LocalStack the SDK reads AWS_ENDPOINT_URL_KMS (or AWS_ENDPOINT_URL)
 * itself; the embedded cloud has no KMS and uses the local secret box instead.
 */
import { KMSClient } from '@aws-sdk/client-kms';
import type { Config } from '../config';

export function createKmsClient(config: Pick<Config, 'region'>): KMSClient {
  return new KMSClient({
    region: config.region,
    requestHandler: { connectionTimeout: 3000, requestTimeout: 15000 },
    maxAttempts: 3,
  });
}
