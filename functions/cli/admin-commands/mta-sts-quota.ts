/** `mta-sts quota` (../admin.ts): hosted MTA-STS's custom domain names and certificates used out of the AWS account's quotas (read only). */
import { buildHostingQuotaUsage } from '#shared/services/mta-sts-provisioning';
import { hostingHeadroom } from '#shared/usecases/domains/mta-sts/quota-headroom';
import type { Command } from './context';

export const mtaStsQuotaCommand: Command = async ({ platform, hostingQuotas }) =>
  hostingHeadroom(buildHostingQuotaUsage(platform), hostingQuotas);
