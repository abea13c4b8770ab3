/**
 * The DNS hosts DNS apply writes through, behind one door: `createDnsHost` picks the adapter for the
 * request's host (Route 53 or Cloudflare) with its credentials (null: Route 53 with the service's own
 * AWS credentials). One adapter per request; nothing here is cached or logged.
 */
import type { Route53Client } from '@aws-sdk/client-route-53';
import type { Config } from '../../config/config';
import { createRoute53Client } from '../aws/route53-client';
import { Route53DnsHost } from './route53';
import type { DnsHost } from '../../ports/dns-host';
import type { DnsHostRequest } from '../../domain/domains/dns-apply';
import { CloudflareDnsHost } from './cloudflare';

/** Clients kept for the process: Route 53 with the service's own credentials (made on first use). */
export interface DnsHostClients {
  route53?: Route53Client;
}

export function createDnsHost(request: DnsHostRequest, config: Config, clients: DnsHostClients = {}): DnsHost {
  if (request.provider === 'cloudflare')
    return new CloudflareDnsHost(request.credentials.apiToken, { baseUrl: config.dnsApply.cloudflareApiUrl });
  const keys = request.credentials;
  // One-time (or stored) keys get a client of their own, destroyed after the request; the service's is reused.
  let client: Route53Client;
  if (keys) client = createRoute53Client(config, keys);
  else {
    clients.route53 ??= createRoute53Client(config, null);
    client = clients.route53;
  }
  return new Route53DnsHost(client, {
    secrets: keys ? [keys.accessKeyId, keys.secretAccessKey, ...(keys.sessionToken ? [keys.sessionToken] : [])] : [],
    settleMs: config.dnsApply.settleMs,
    ownsClient: keys !== null,
  });
}
