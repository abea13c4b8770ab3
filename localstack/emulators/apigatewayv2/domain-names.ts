/**
 * Custom domain names (https://docs.aws.amazon.com/apigatewayv2/latest/api-reference/domainnames.html and
 * .../domainnames-domainname.html), regional ones as HTTP APIs take them
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-custom-domain-names.html):
 * - CreateDomainName (201): one configuration, EndpointType REGIONAL ("HTTP APIs support only Regional
 *   custom domain names"), SecurityPolicy TLS_1_0 or TLS_1_2 (default TLS_1_2), a certificate of ACM in
 *   this region that is ISSUED and covers the name ("The certificate must be ... issued", "must cover the
 *   domain name"): else BadRequestException; a name that exists: ConflictException; past the account's
 *   quota of regional custom domain names (120 by default:
 *   https://docs.aws.amazon.com/apigateway/latest/developerguide/limits.html): BadRequestException, as the
 *   operation's errors list no other for it. The answer's configuration names the target
 *   `d-<id>.execute-api.<region>.amazonaws.com` with the regional hosted zone id (./regional-endpoints.ts),
 *   status AVAILABLE, and the target is published `A 127.0.0.1` in the DNS emulator (AWS's DNS answers
 *   it publicly). The certificate's InUseBy gains the domain name.
 * - GetDomainName, GetDomainNames (paged), DeleteDomainName (204; its mappings go with it, its target's
 *   record is removed, the certificate's InUseBy loses it).
 * Mutual TLS, ownership verification certificates and tags are not emulated (refused, BadRequestException).
 */
import { coversHost } from '../acm/domain-names';
import { ApiGatewayFault, badRequest } from './errors';
import { page } from './paging';
import { newApiGatewayDomainName, regionalHostedZoneId } from './regional-endpoints';
import type { ApiGatewayState } from './state';
import type { DomainNameRecord } from './types';

export const DEFAULT_REGIONAL_DOMAIN_NAME_QUOTA = 120;
const DOMAIN_NAME = /^(\*\.)?((?!-)[a-z0-9-]{1,63}(?<!-)\.)+(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const SECURITY_POLICIES = ['TLS_1_0', 'TLS_1_2'] as const;

type Body = Record<string, unknown>;

export function domainNameOf(state: ApiGatewayState, name: string): DomainNameRecord {
  const record = state.domainNames.get(name.toLowerCase());
  if (!record)
    throw new ApiGatewayFault('NotFoundException', `The domain name resource specified in the request was not found.`, 'DomainName');
  return record;
}

/** The answer of CreateDomainName and GetDomainName: the record without its mappings. */
export function domainNameView({ mappings: _mappings, ...view }: DomainNameRecord): Body {
  return view;
}

function readConfiguration(body: Body): { certificateArn: string; securityPolicy: (typeof SECURITY_POLICIES)[number] } {
  const configurations = body.domainNameConfigurations;
  if (
    !Array.isArray(configurations) ||
    configurations.length !== 1 ||
    typeof configurations[0] !== 'object' ||
    configurations[0] === null
  ) {
    throw badRequest('domainNameConfigurations must hold exactly one configuration.');
  }
  const config = configurations[0] as Body;
  const endpointType = config.endpointType ?? 'REGIONAL';
  if (endpointType !== 'REGIONAL')
    throw badRequest(`Invalid endpoint type ${String(endpointType)}: HTTP APIs support only REGIONAL custom domain names.`);
  const securityPolicy = config.securityPolicy ?? 'TLS_1_2';
  if (!SECURITY_POLICIES.includes(securityPolicy as never)) throw badRequest(`Invalid security policy ${String(securityPolicy)}.`);
  for (const member of ['ownershipVerificationCertificateArn', 'certificateName']) {
    if (config[member] !== undefined) throw badRequest(`${member} is not emulated by the local API Gateway.`);
  }
  if (typeof config.certificateArn !== 'string' || config.certificateArn === '') throw badRequest('A certificateArn is required.');
  return { certificateArn: config.certificateArn, securityPolicy: securityPolicy as (typeof SECURITY_POLICIES)[number] };
}

export async function createDomainName(state: ApiGatewayState, body: Body): Promise<Body> {
  const domainName = typeof body.domainName === 'string' ? body.domainName.toLowerCase() : '';
  if (!DOMAIN_NAME.test(domainName) || domainName.length > 512)
    throw badRequest(`Invalid domain name identifier specified: ${String(body.domainName)}`);
  for (const member of ['mutualTlsAuthentication', 'tags', 'routingMode']) {
    if (body[member] !== undefined) throw badRequest(`${member} is not emulated by the local API Gateway.`);
  }
  const { certificateArn, securityPolicy } = readConfiguration(body);
  if (!certificateArn.startsWith(`arn:aws:acm:${state.region}:`))
    throw badRequest(`Invalid certificate ARN: ${certificateArn}. A regional domain name needs a certificate in ${state.region}.`);
  const certificate = await state.certificates.certificate(certificateArn);
  if (!certificate) throw badRequest(`Invalid certificate ARN: ${certificateArn}. Certificate must be in 'ISSUED' state.`);
  if (certificate.status !== 'ISSUED')
    throw badRequest(`Certificate ${certificateArn} is in state ${certificate.status}. Certificate must be in 'ISSUED' state.`);
  if (!coversHost(certificate.domainNames, domainName)) {
    throw badRequest(
      `The certificate ${certificateArn} does not cover the domain name ${domainName} (it is for ${certificate.domainNames.join(', ')}).`,
    );
  }
  if (state.domainNames.has(domainName)) throw new ApiGatewayFault('ConflictException', `The domain name you provided already exists.`);
  if (state.domainNames.size >= state.domainNameQuota)
    throw badRequest(
      `Exceeded the maximum number of regional custom domain names (${state.domainNameQuota}) for this account in ${state.region}.`,
    );
  const record: DomainNameRecord = {
    domainName,
    domainNameArn: `arn:aws:apigateway:${state.region}::/domainnames/${domainName}`,
    apiMappingSelectionExpression: '$request.basepath',
    domainNameConfigurations: [
      {
        apiGatewayDomainName: newApiGatewayDomainName(state.region),
        certificateArn,
        domainNameStatus: 'AVAILABLE',
        endpointType: 'REGIONAL',
        hostedZoneId: regionalHostedZoneId(state.region),
        securityPolicy,
      },
    ],
    tags: {},
    mappings: [],
  };
  state.domainNames.set(domainName, record);
  state.save();
  state.dns.setRecords({ name: record.domainNameConfigurations[0].apiGatewayDomainName, type: 'A', values: ['127.0.0.1'] });
  state.certificates.addUse(certificateArn, record.domainNameArn);
  return domainNameView(record);
}

export function getDomainNames(state: ApiGatewayState, query: URLSearchParams): Body {
  const records = [...state.domainNames.values()].sort((a, b) => (a.domainName < b.domainName ? -1 : 1));
  const { items, nextToken } = page(records, query);
  return { items: items.map(domainNameView), ...(nextToken ? { nextToken } : {}) };
}

export function deleteDomainName(state: ApiGatewayState, record: DomainNameRecord): void {
  state.domainNames.delete(record.domainName);
  state.save();
  const [config] = record.domainNameConfigurations;
  state.dns.deleteRecords(config.apiGatewayDomainName, 'A');
  state.certificates.removeUse(config.certificateArn, record.domainNameArn);
}
