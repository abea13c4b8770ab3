/**
 * The hosts of hosted MTA-STS policies and of link domains: the ACM and API Gateway clients that provision
 * their certificates and custom domain names, which only the domain-health task composes (and the admin CLI's
 * quota figure).
 */
import { createAcmClient, createApiGatewayV2Client } from '../adapters/aws/hosting-clients';
import { AcmHostCertificates } from '../adapters/aws/acm-host-certificates';
import { ApiGatewayHostDomains } from '../adapters/aws/apigateway-host-domains';
import { AwsHostingQuotaUsage } from '../adapters/aws/hosting-quota-usage';
import type { Platform } from './platform';

export function buildMtaStsProvisioning({ config }: Pick<Platform, 'config'>) {
  return {
    hostCertificates: new AcmHostCertificates(createAcmClient(config)),
    hostDomains: new ApiGatewayHostDomains(createApiGatewayV2Client(config), { 'mta-sts': config.mtaStsApiId, links: config.linksApiId }),
  };
}

export function buildHostingQuotaUsage({ config }: Pick<Platform, 'config'>): AwsHostingQuotaUsage {
  return new AwsHostingQuotaUsage(createAcmClient(config), createApiGatewayV2Client(config));
}

export type MtaStsProvisioningServices = ReturnType<typeof buildMtaStsProvisioning>;
