/**
 * Every AWS client's options: the only place that knows about endpoint overrides, so the same code runs on
 * AWS, on LocalStack and on the embedded local cloud. One module per client (./sqs-client.ts, ./s3-client.ts,
 * ./ses-clients.ts, ./scheduler-client.ts, ./route53-client.ts, ./hosting-clients.ts, ./dynamo-client.ts,
 * ./kms-client.ts), so a function's composition root (shared/services/) builds, its bundle holds, and a process
 * that keeps the packages external (the local cloud's bundles) loads only the clients it uses. Each client goes
 * through ./client-hooks.ts (no hook in production; the local cloud's IAM enforcement otherwise).
 */
import type { Config } from '../../config/config';
import { REQUEST_HANDLER_OPTIONS } from './request-handler';

type Service = keyof Config['endpoints'];

/** Region, the endpoint override if any, fail-fast timeouts, 3 attempts: every client's options. */
export function clientOptions(config: Config, service: Service) {
  const endpoint = config.endpoints[service];
  return {
    region: config.region,
    ...(endpoint ? { endpoint } : {}),
    requestHandler: REQUEST_HANDLER_OPTIONS,
    maxAttempts: 3,
  };
}
