/**
 * Hosted MTA-STS policies (docs/deliverability.md, "Hosted MTA-STS policy"): the stored policies (the
 * domains group and the dashboard's domain pages read and change them; the MTA-STS function serves them;
 * the domain-health task steps them). Their hosts' provisioning is ./mta-sts-provisioning.ts.
 */
import { MtaStsHostingRepository } from '../adapters/store/mta-sts-hosting';
import type { Platform } from './platform';

export function buildMtaStsHosting({ config, table }: Pick<Platform, 'config' | 'table'>) {
  return {
    mtaStsHosting: new MtaStsHostingRepository(table),
    /** The MX a receiving subdomain's policy names. */
    inboundMxHost: config.inboundMxHost,
  };
}

export type MtaStsHostingServices = ReturnType<typeof buildMtaStsHosting>;
