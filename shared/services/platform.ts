/**
 * What every function stands on: the configuration, the clock, the table's handle and the DNS resolver.
 * The capability modules of this folder build their repositories on it (./index.ts lists them).
 */
import { createDynamoClient } from '../adapters/aws/dynamo-client';
import { serviceClock } from '../adapters/clock';
import { NodeDnsResolver, parseResolvers } from '../adapters/dns/node-dns-resolver';
import { loadConfig, type Config } from '../config/config';
import type { Clock } from '../ports/clock';

export function buildPlatform(config: Config = loadConfig()) {
  const clock: Clock = serviceClock;
  return {
    config,
    clock,
    /** The table handle: what every capability module makes its repositories with. */
    table: { client: createDynamoClient(config), name: config.tableName },
    sandboxDomain: config.sandboxDomain,
    dashboardUrl: config.dashboardUrl,
    /** DNS_RESOLVERS (the DNS emulator on the local cloud): domain verification, webhook URL checks, the MX listener's SPF/DKIM/DMARC. */
    dns: new NodeDnsResolver(parseResolvers(config.dnsResolvers)),
  };
}

export type Platform = ReturnType<typeof buildPlatform>;
