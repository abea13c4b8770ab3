/**
 * The SES clients (./client-options.ts): one for the API's calls, one that sends.
 */
import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { Config } from '../../config/config';
import { withClientHooks } from './client-hooks';
import { clientOptions } from './client-options';
import { RetryUnlessThrottled } from './retry-unless-throttled';

export function createSesClient(config: Config): SESv2Client {
  return withClientHooks(new SESv2Client(clientOptions(config, 'ses')));
}

/**
 * The SES client that sends (SendEmail only): SES's throttling is not retried by the SDK but handed to the
 * send worker, which paces to SES's rate and holds a throttled email (shared/usecases/delivery/pace.ts).
 */
export function createSesSendClient(config: Config): SESv2Client {
  const options = clientOptions(config, 'ses');
  return withClientHooks(new SESv2Client({ ...options, retryStrategy: new RetryUnlessThrottled(options.maxAttempts) }));
}
