/**
 * Ports: hosting of hosted hosts, MTA-STS policy hosts and link domains (ACM and API Gateway in AWS: shared/adapters/aws/acm-host-certificates.ts,
 * apigateway-host-domains.ts, hosting-quota-usage.ts). A step the account's quotas refuse is a HostingQuotaError.
 */

import type { HostedApi } from '../domain/domains/hosting/host-hosting';

/**
 * Public certificates of hosted hosts (ACM in AWS: shared/adapters/aws/acm-host-certificates.ts),
 * validated through a DNS record the domain's owner publishes.
 */
export interface HostCertificates {
  /** Requests a certificate for `host`; the same `token` within an hour answers the same certificate. */
  request(host: string, token: string): Promise<{ arn: string }>;
  /** null when the certificate is gone. `validationRecord` is null until the provider has made it (seconds). */
  describe(arn: string): Promise<HostCertificate | null>;
  /** Deletes it: `deleted` (or already gone), or `in_use` while a custom domain name still uses it (retry later). */
  remove(arn: string): Promise<'deleted' | 'in_use'>;
}

export interface HostCertificate {
  status: 'pending' | 'issued' | 'failed';
  /** Why it failed (the provider's status and reason), when failed. */
  failure: string | null;
  validationRecord: { name: string; value: string } | null;
}

/**
 * Custom domain names of hosted hosts (API Gateway in AWS: shared/adapters/aws/apigateway-host-domains.ts),
 * each served by the API of its kind: the MTA-STS API, or the links API (link domains).
 */
export interface HostDomainNames {
  /** Creates (or finds, when it exists) the custom domain name `host` with the certificate, mapped to `api`; answers its target host name. */
  ensure(host: string, certificateArn: string, api: HostedApi): Promise<{ target: string }>;
  /** Deletes the custom domain name and its mappings (already gone: fine). */
  remove(host: string): Promise<void>;
}

/**
 * How much of the AWS account's quotas hosted MTA-STS policies draw on is used, by anything in the account and
 * Region (shared/adapters/aws/hosting-quota-usage.ts): for the operator's headroom report.
 */
export interface HostingQuotaUsage {
  /** Regional custom domain names (API Gateway). */
  domainNames(): Promise<number>;
  /** ACM certificates, every status and key type. */
  certificates(): Promise<number>;
}

/** A step AWS refused for a limit of the account (a quota): not retried; the message says which. */
export class HostingQuotaError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HostingQuotaError';
  }
}
