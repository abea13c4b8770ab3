/**
 * The HostingQuotaUsage port over ACM and API Gateway: the AWS account's certificates (ListCertificates, every
 * key type: by default it lists RSA_2048 ones only, https://docs.aws.amazon.com/acm/latest/APIReference/API_ListCertificates.html)
 * and regional custom domain names (GetDomainNames), counted page by page. Whatever made them counts: the
 * quotas are the account's, not the service's.
 */
import { ListCertificatesCommand, type ACMClient, type KeyAlgorithm } from '@aws-sdk/client-acm';
import { GetDomainNamesCommand, type ApiGatewayV2Client } from '@aws-sdk/client-apigatewayv2';
import type { HostingQuotaUsage } from '../../ports/hosting';

const KEY_TYPES: KeyAlgorithm[] = ['RSA_1024', 'RSA_2048', 'RSA_3072', 'RSA_4096', 'EC_prime256v1', 'EC_secp384r1', 'EC_secp521r1'];

export class AwsHostingQuotaUsage implements HostingQuotaUsage {
  constructor(
    private readonly acm: ACMClient,
    private readonly apiGateway: ApiGatewayV2Client,
  ) {}

  async certificates(): Promise<number> {
    let count = 0;
    let token: string | undefined;
    do {
      const page = await this.acm.send(
        new ListCertificatesCommand({ MaxItems: 1000, NextToken: token, Includes: { keyTypes: KEY_TYPES } }),
      );
      count += page.CertificateSummaryList?.length ?? 0;
      token = page.NextToken;
    } while (token);
    return count;
  }

  async domainNames(): Promise<number> {
    let count = 0;
    let token: string | undefined;
    do {
      const page = await this.apiGateway.send(new GetDomainNamesCommand({ NextToken: token }));
      count += page.Items?.length ?? 0;
      token = page.NextToken;
    } while (token);
    return count;
  }
}
