/**
 * Hosted MTA-STS policies' modules (docs/deliverability.md, "Hosted MTA-STS policy"): the stored policies
 * (the domains group and the dashboard's domain pages read and change them; the domain-health task steps
 * them), and the ACM and API Gateway clients that provision their hosts, which only the task composes.
 */
import { createAcmClient, createApiGatewayV2Client } from '../adapters/aws/client-factories';
import { AcmHostCertificates } from '../adapters/aws/acm-host-certificates';
import { ApiGatewayHostDomains } from '../adapters/aws/apigateway-host-domains';
import { AwsHostingQuotaUsage } from '../adapters/aws/hosting-quota-usage';
import { MtaStsHostingRepository } from '../adapters/store/mta-sts-hosting';
import type { CoreServices } from './core';

export function buildMtaStsHosting(core: Pick<CoreServices, 'config' | 'table'>) {
  return {
    mtaStsHosting: new MtaStsHostingRepository(core.table),
    /** The MX a receiving subdomain's policy names. */
    inboundMxHost: core.config.inboundMxHost,
  };
}

export function buildMtaStsProvisioning(core: Pick<CoreServices, 'config'>) {
  const { config } = core;
  return {
    hostCertificates: new AcmHostCertificates(createAcmClient(config)),
    hostDomains: new ApiGatewayHostDomains(createApiGatewayV2Client(config), config.mtaStsApiId),
  };
}

/** How much of the AWS account's certificate and custom domain name quotas is used (the operator's headroom report). */
export function buildHostingQuotaUsage(core: Pick<CoreServices, 'config'>): AwsHostingQuotaUsage {
  return new AwsHostingQuotaUsage(createAcmClient(core.config), createApiGatewayV2Client(core.config));
}

export type MtaStsHostingServices = ReturnType<typeof buildMtaStsHosting>;
export type MtaStsProvisioningServices = ReturnType<typeof buildMtaStsProvisioning>;
