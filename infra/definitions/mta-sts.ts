/** The hosted MTA-STS policies' own HTTP API, and the grants of whoever provisions their hosts. */
import type { Grant } from './access';
import type { Capability } from './capabilities';
import { acmCertificates, apiGatewayDomainNames, tableRead } from './grants';

/**
 * The HTTP API of hosted MTA-STS policies (docs/deliverability.md, "Hosted MTA-STS policy"): an API of its own,
 * with no execute-api endpoint, reached only through the custom domain names `mta-sts.inbound.<domain>` the
 * domains group creates and maps to it at run time. One public route, one small function reading the policy
 * of the host it was asked for.
 */
export const MTA_STS_API = {
  name: 'mta-sts',
  entry: 'functions/api/mta-sts/handler.ts',
  capabilities: ['platform', 'mta-sts-hosting'] as Capability[],
  routes: ['GET /.well-known/mta-sts.txt'],
  memoryMb: 256,
  grants: [tableRead] as Grant[],
};

/**
 * The grants of whoever provisions a hosted MTA-STS policy host: its certificate in ACM and its custom
 * domain name (with the mapping to the MTA-STS API) in API Gateway. Only the domain-health task takes those
 * steps (PUT and DELETE /domains/{id}/mta-sts only make them due), so only it holds these.
 */
export const MTA_STS_HOSTING_GRANTS: Grant[] = [acmCertificates, apiGatewayDomainNames];
