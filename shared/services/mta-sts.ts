/**
 * Hosted MTA-STS policies' module (docs/deliverability.md, "Hosted MTA-STS policy"): the stored policies, and
 * the ACM and API Gateway clients that provision their hosts. Composed by the functions that manage them (the
 * domains group, the dashboard's domain pages, the domain-health task); the MTA-STS function reads the store only.
 */
import { createAcmClient, createApiGatewayV2Client } from '../adapters/aws/client-factories';
import { AcmHostCertificates } from '../adapters/aws/acm-host-certificates';
import { ApiGatewayHostDomains } from '../adapters/aws/apigateway-host-domains';
import { MtaStsHostingRepository } from '../adapters/store/mta-sts-hosting';
import type { CoreServices } from './core';

export function buildMtaStsHosting(core: Pick<CoreServices, 'config' | 'table'>) {
  const { config, table } = core;
  return {
    mtaStsHosting: new MtaStsHostingRepository(table),
    hostCertificates: new AcmHostCertificates(createAcmClient(config)),
    hostDomains: new ApiGatewayHostDomains(createApiGatewayV2Client(config), config.mtaStsApiId),
    inboundMxHost: config.inboundMxHost,
  };
}

export type MtaStsHostingServices = ReturnType<typeof buildMtaStsHosting>;
