/**
 * The ACM (AWS Certificate Manager) emulator of the local cloud, for the hosted MTA-STS policies' custom
 * domain names: public certificates requested with DNS validation through the unmodified
 * `@aws-sdk/client-acm` (AWS JSON 1.1, `X-Amz-Target: CertificateManager.<Operation>`: ./operations.ts).
 * A certificate stays PENDING_VALIDATION until the validation CNAME it names is in DNS (the local DNS
 * emulator), then is ISSUED with a real key pair and X.509 certificate signed by the emulator's own CA
 * (./issuer.ts), or VALIDATION_TIMED_OUT after 72 hours (./validation.ts). State in
 * `<dataDir>/certificates.json`, the CA in `<caDir>` (default the data dir). See docs/local-cloud/custom-domains.md.
 *
 * Besides the API, the local cloud reads what AWS's own services read and the API never hands out: an
 * issued certificate's private key and chain (`issuedCertificate`, for the custom domains' HTTPS
 * listener), and records which resources use a certificate (`addUse`/`removeUse`: InUseBy).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { awsJsonHandler } from '../aws-json';
import { serveHttp } from '../http-server';
import { CertificateIssuer } from './issuer';
import { acmOperations } from './operations';
import { DEFAULT_CERTIFICATE_QUOTA } from './request-certificate';
import { AcmState } from './state';
import type { CertificateRecord, IssuedCertificate } from './types';
import { CertificateValidation } from './validation';
import type { DnsServers } from '../dns-servers';
import { emulatorAccount, type EmulatorOptions } from '../emulator-options';

export type { IssuedCertificate } from './types';
export { coversHost } from './domain-names';

export interface AcmEmulatorOptions extends EmulatorOptions {
  /** Where the CA's certificate and key live; default dataDir, or a new temporary folder when memory only. */
  caDir?: string;
  region?: string;
  accountId?: string;
  /**
   * The DNS servers validation records are looked up at (`host:port`: the DNS emulator's address, or by name,
   * ../dns-servers.ts); default the system's.
   */
  dnsResolver?: DnsServers;
  /** The account's quota of ACM certificates; default 2,500 (ACM's default). */
  certificateQuota?: number;
  /** The clock of the 72-hour validation window and the idempotency hour; default Date.now. */
  now?: () => number;
}

/** What the local cloud reads of a certificate: its names and status, after a check of DNS when pending. */
export interface CertificateState {
  certificateArn: string;
  domainNames: string[];
  status: CertificateRecord['Status'];
}

export interface AcmEmulator {
  /** Endpoint for the SDK (AWS_ENDPOINT_URL_ACM). */
  url: string;
  region: string;
  accountId: string;
  /** The emulator's CA certificate (PEM file): what a client of a certificate it issued trusts. */
  caFile: string;
  /** The certificate of `arn`, brought up to date with DNS; undefined when there is none. */
  certificate(arn: string): Promise<CertificateState | undefined>;
  /** The key and chain of an ISSUED certificate; undefined for any other. */
  issuedCertificate(arn: string): IssuedCertificate | undefined;
  /** Records that `resourceArn` uses the certificate (InUseBy). */
  addUse(arn: string, resourceArn: string): void;
  removeUse(arn: string, resourceArn: string): void;
  stop(): Promise<void>;
}

export async function startAcmEmulator(options: AcmEmulatorOptions = {}): Promise<AcmEmulator> {
  const log = options.log ?? (() => undefined);
  const { region, accountId } = emulatorAccount(options);
  const now = options.now ?? Date.now;
  const state = new AcmState(options.dataDir);
  const caDir = options.caDir ?? options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'acm-ca-'));
  const issuer = await CertificateIssuer.open(caDir, Date.now());
  const validation = new CertificateValidation({ state, issuer, accountId, resolver: options.dnsResolver, now, log });
  const operations = acmOperations({
    state,
    region,
    accountId,
    quota: options.certificateQuota ?? DEFAULT_CERTIFICATE_QUOTA,
    now,
    validation,
    issuer,
  });
  const { url, stop } = await serveHttp(
    options,
    awsJsonHandler({ targetPrefix: 'CertificateManager', operations, internalError: 'InternalFailure', log: (msg) => log(`acm: ${msg}`) }),
  );
  log(`acm: listening on ${url}${options.dataDir ? `, certificates in ${options.dataDir}` : ', in memory'}`);

  const changeUse = (arn: string, change: (uses: string[]) => string[]) => {
    const record = state.certificates.get(arn);
    if (!record) return;
    record.InUseBy = change(record.InUseBy);
    state.save();
  };
  return {
    url,
    region,
    accountId,
    caFile: issuer.caFile,
    certificate: async (arn) => {
      const record = state.certificates.get(arn);
      if (!record) return undefined;
      const current = await validation.refresh(record);
      return { certificateArn: arn, domainNames: current.SubjectAlternativeNames, status: current.Status };
    },
    issuedCertificate: (arn) => {
      const record = state.certificates.get(arn);
      if (record?.Status !== 'ISSUED' || !record.certificatePem || !record.privateKeyPem) return undefined;
      return {
        certificateArn: arn,
        domainNames: record.SubjectAlternativeNames,
        privateKeyPem: record.privateKeyPem,
        certificatePem: record.certificatePem,
        chainPem: issuer.caPem,
      };
    },
    addUse: (arn, resourceArn) => changeUse(arn, (uses) => [...new Set([...uses, resourceArn])]),
    removeUse: (arn, resourceArn) => changeUse(arn, (uses) => uses.filter((use) => use !== resourceArn)),
    stop,
  };
}
