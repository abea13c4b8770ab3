/**
 * The DNS hosts DNS apply writes through, behind one door: `createDnsHost` picks the adapter for the
 * request's host (Route 53 or Cloudflare) with its credentials (null: Route 53 with the service's own
 * AWS credentials). One adapter per request; nothing here is cached or logged.
 */
import type { Route53Client } from '@aws-sdk/client-route-53';
import type { Config } from '../config';
import { createRoute53Client } from '../aws/clients';
import { Route53DnsHost } from '../aws/route53-dns-host';
import { ValidationError } from '../domain/errors';
import type { DnsHost, DnsHostRequest } from '../domain/domains/dns-apply';
import { CloudflareDnsHost } from './cloudflare';

export { CloudflareDnsHost } from './cloudflare';
export { Route53DnsHost } from '../aws/route53-dns-host';

/** Clients kept for the process: Route 53 with the service's own credentials (made on first use). */
export interface DnsHostClients {
  route53?: Route53Client;
}

export function createDnsHost(request: DnsHostRequest, config: Config, clients: DnsHostClients = {}): DnsHost {
  const { credentials } = request;
  if (request.provider === 'route53') {
    const keys = credentials?.provider === 'route53' ? credentials : null;
    // One-time (or stored) keys get a client of their own, destroyed after the request; the service's is reused.
    const client = keys ? createRoute53Client(config, keys) : (clients.route53 ??= createRoute53Client(config, null));
    return new Route53DnsHost(client, {
      secrets: keys ? [keys.accessKeyId, keys.secretAccessKey, ...(keys.sessionToken ? [keys.sessionToken] : [])] : [],
      settleMs: config.dnsApply.settleMs,
      ownsClient: keys !== null,
    });
  }
  if (credentials?.provider !== 'cloudflare') {
    throw new ValidationError('Cloudflare needs an API token: send credentials.api_token, or store one with PUT /dns-providers/cloudflare.', {
      details: { fields: [{ field: 'credentials.api_token', message: 'required for cloudflare' }] },
    });
  }
  return new CloudflareDnsHost(credentials.apiToken, { baseUrl: config.dnsApply.cloudflareApiUrl });
}
