import { Route53Client } from '@aws-sdk/client-route-53';
import type { Config } from '../../config/config';
import { withClientHooks } from './client-hooks';
import { clientOptions } from './client-options';

/**
 * A Route 53 client for DNS apply (docs/domains.md, "DNS apply"): with the credentials a request gave
 * (or stored for the account), or, without, the function's own (its role in AWS; the local cloud's
 * keys locally, where AWS_ENDPOINT_URL_ROUTE_53 points at the Route 53 emulator). One per request.
 */
export function createRoute53Client(
  config: Config,
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | null,
): Route53Client {
  const client = new Route53Client({
    ...clientOptions(config, 'route53'),
    ...(credentials
      ? {
          credentials: {
            accessKeyId: credentials.accessKeyId,
            secretAccessKey: credentials.secretAccessKey,
            ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
          },
        }
      : {}),
  });
  // A customer's keys are not the function's role: the local IAM enforcement leaves such a client alone.
  return withClientHooks(client, { explicitCredentials: credentials !== null });
}
