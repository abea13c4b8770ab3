/**
 * The HostDomainNames port over API Gateway (v2) custom domain names
 * (https://docs.aws.amazon.com/apigatewayv2/latest/api-reference/domainnames.html): a REGIONAL domain name per
 * hosted host, with its ACM certificate (which must be issued) and TLS 1.2, mapped to the `$default` stage of
 * its kind's HTTP API: the MTA-STS API (MTA_STS_API_ID) or the links API (LINKS_API_ID). Its target (`d-....execute-api.<region>.amazonaws.com`) is what the
 * host's CNAME names. Creating is idempotent here: an existing name is read, an existing mapping kept.
 */
import {
  CreateApiMappingCommand,
  CreateDomainNameCommand,
  DeleteDomainNameCommand,
  GetApiMappingsCommand,
  GetDomainNameCommand,
  type ApiGatewayV2Client,
  type DomainNameConfiguration,
} from '@aws-sdk/client-apigatewayv2';
import type { HostedApi } from '../../domain/domains/hosting/host-hosting';
import { HostingQuotaError, type HostDomainNames } from '../../ports/hosting';

const errorName = (error: unknown) => (error as { name?: string } | null)?.name ?? '';

/** The stage every mapping names: the hosted APIs' default stage (infra/constructs/api.ts). */
export const MTA_STS_STAGE = '$default';

/** The setting naming each hosted API's id. */
const API_ID_SETTINGS: Record<HostedApi, string> = { 'mta-sts': 'MTA_STS_API_ID', links: 'LINKS_API_ID' };

export class ApiGatewayHostDomains implements HostDomainNames {
  constructor(
    private readonly apiGateway: ApiGatewayV2Client,
    private readonly apiIds: Record<HostedApi, string>,
  ) {}

  async ensure(host: string, certificateArn: string, api: HostedApi): Promise<{ target: string }> {
    const apiId = this.apiIds[api];
    if (!apiId) throw new Error(`${API_ID_SETTINGS[api]} is not set: this function cannot map the hosts of the ${api} API`);
    const configuration = (await this.existing(host)) ?? (await this.create(host, certificateArn));
    const target = configuration.ApiGatewayDomainName;
    if (!target) throw new Error(`API Gateway answered no target for the custom domain name ${host}`);
    const { Items } = await this.apiGateway.send(new GetApiMappingsCommand({ DomainName: host }));
    if (!(Items ?? []).some((mapping) => mapping.ApiId === apiId && mapping.Stage === MTA_STS_STAGE)) {
      try {
        await this.apiGateway.send(new CreateApiMappingCommand({ DomainName: host, ApiId: apiId, Stage: MTA_STS_STAGE }));
      } catch (error) {
        // Made meanwhile by a racing step: the same mapping.
        if (errorName(error) !== 'ConflictException') throw error;
      }
    }
    return { target: target.replace(/\.$/, '') };
  }

  async remove(host: string): Promise<void> {
    try {
      // Deleting a domain name deletes its API mappings with it.
      await this.apiGateway.send(new DeleteDomainNameCommand({ DomainName: host }));
    } catch (error) {
      if (errorName(error) !== 'NotFoundException') throw error;
    }
  }

  private async existing(host: string): Promise<DomainNameConfiguration | null> {
    try {
      const { DomainNameConfigurations } = await this.apiGateway.send(new GetDomainNameCommand({ DomainName: host }));
      return DomainNameConfigurations?.[0] ?? null;
    } catch (error) {
      if (errorName(error) === 'NotFoundException') return null;
      throw error;
    }
  }

  private async create(host: string, certificateArn: string): Promise<DomainNameConfiguration> {
    try {
      const { DomainNameConfigurations } = await this.apiGateway.send(
        new CreateDomainNameCommand({
          DomainName: host,
          DomainNameConfigurations: [{ CertificateArn: certificateArn, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }],
        }),
      );
      const configuration = DomainNameConfigurations?.[0];
      if (!configuration) throw new Error(`API Gateway answered no configuration for the custom domain name ${host}`);
      return configuration;
    } catch (error) {
      if (errorName(error) === 'ConflictException') {
        const raced = await this.existing(host);
        if (raced) return raced;
      }
      // https://docs.aws.amazon.com/apigateway/latest/developerguide/limits.html: regional custom domain names per account and Region.
      if (errorName(error) === 'LimitExceededException' || /limit|quota|maximum number/i.test((error as Error).message ?? '')) {
        throw new HostingQuotaError(
          `API Gateway refused the custom domain name ${host}: the AWS account reached its "Regional custom domain names" quota (${(error as Error).message}). Ask AWS for a higher quota, or remove hosted policies no longer used.`,
          { cause: error },
        );
      }
      throw error;
    }
  }
}
