/**
 * What the API Gateway V2 emulator's actions work on, handed to each: its custom domain names (memory, or
 * `<dataDir>/domain-names.json`), the APIs and stages the local cloud deployed (told after the template is
 * deployed), the ACM emulator (certificates and their InUseBy) and the DNS emulator (the targets' A records).
 */
import path from 'node:path';
import { JsonState } from '../dns/hosted';
import type { DnsRecordSet } from '../dns';
import type { DomainNameRecord } from './types';

/** What the emulator needs of the ACM emulator (../acm). */
export interface CertificateSource {
  certificate(arn: string): Promise<{ domainNames: string[]; status: string } | undefined>;
  addUse(arn: string, resourceArn: string): void;
  removeUse(arn: string, resourceArn: string): void;
}

/** What the emulator needs of the DNS emulator (../dns). */
export interface DnsPublisher {
  setRecords(set: DnsRecordSet): unknown;
  deleteRecords(name: string, type?: 'A'): number;
}

export interface ApiGatewayState {
  readonly region: string;
  readonly accountId: string;
  readonly domainNames: Map<string, DomainNameRecord>;
  /** Deployed API ids and each one's stage names. */
  apis: Map<string, Set<string>>;
  readonly certificates: CertificateSource;
  readonly dns: DnsPublisher;
  /** The account's quota of regional custom domain names. */
  readonly domainNameQuota: number;
  save(): void;
}

export function openApiGatewayState(options: {
  region: string;
  accountId: string;
  dataDir?: string;
  certificates: CertificateSource;
  dns: DnsPublisher;
  domainNameQuota: number;
}): ApiGatewayState {
  const file = new JsonState<{ version: 1; domainNames: DomainNameRecord[] }>(
    options.dataDir ? path.join(options.dataDir, 'domain-names.json') : undefined,
    { version: 1, domainNames: [] },
  );
  const domainNames = new Map(file.load().domainNames.map((record) => [record.domainName, record]));
  return {
    region: options.region,
    accountId: options.accountId,
    domainNames,
    apis: new Map(),
    certificates: options.certificates,
    dns: options.dns,
    domainNameQuota: options.domainNameQuota,
    save: () => file.save({ version: 1, domainNames: [...domainNames.values()] }),
  };
}
