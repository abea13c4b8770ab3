/**
 * Test harness: a real DNS emulator and the ACM emulator over it (a data dir, a clock the test moves), with
 * the official ACM client pointed at it; `issue(name)` walks a certificate through DNS validation as a user
 * would (request, read the validation record, publish it, describe until ISSUED).
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { ACMClient, DescribeCertificateCommand, RequestCertificateCommand, type CertificateDetail } from '@aws-sdk/client-acm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAcmEmulator, type AcmEmulator, type AcmEmulatorOptions } from '#localstack/emulators/acm';
import { startDnsEmulator, type DnsEmulator } from '#localstack/emulators/dns';

export const region = 'us-east-1';
export const accountId = '123456789012';
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

export interface AcmRun {
  dns: DnsEmulator;
  acm: AcmEmulator;
  client: ACMClient;
  dataDir: string;
  /** Milliseconds added to the real clock (the emulator's `now`). */
  clock: { offsetMs: number };
  /** Stops the ACM emulator and starts another on the same data dir (the DNS emulator stays). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startAcm(options: Partial<AcmEmulatorOptions> = {}): Promise<AcmRun> {
  const dns = await startDnsEmulator({});
  const dataDir = mkdtempSync(join(tmpdir(), 'acm-test-'));
  const clock = { offsetMs: 0 };
  const start = () =>
    startAcmEmulator({ dataDir, region, accountId, dnsResolver: dns.address, now: () => Date.now() + clock.offsetMs, ...options });
  const run: AcmRun = {
    dns,
    acm: await start(),
    client: undefined as unknown as ACMClient,
    dataDir,
    clock,
    async restart() {
      run.client.destroy();
      await run.acm.stop();
      run.acm = await start();
      run.client = new ACMClient({ endpoint: run.acm.url, region, credentials, maxAttempts: 1 });
    },
    async stop() {
      run.client.destroy();
      await run.acm.stop();
      await dns.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  run.client = new ACMClient({ endpoint: run.acm.url, region, credentials, maxAttempts: 1 });
  return run;
}

export async function describe_(run: AcmRun, arn: string): Promise<CertificateDetail> {
  return (await run.client.send(new DescribeCertificateCommand({ CertificateArn: arn }))).Certificate!;
}

/** Publishes the validation CNAME of each of the certificate's names in the DNS emulator. */
export async function publishValidation(run: AcmRun, arn: string): Promise<void> {
  for (const option of (await describe_(run, arn)).DomainValidationOptions ?? []) {
    run.dns.setRecords({ name: option.ResourceRecord!.Name!, type: 'CNAME', values: [option.ResourceRecord!.Value!] });
  }
}

/** A certificate for `name`, ISSUED. */
export async function issue(run: AcmRun, name: string): Promise<string> {
  const { CertificateArn } = await run.client.send(new RequestCertificateCommand({ DomainName: name, ValidationMethod: 'DNS' }));
  await publishValidation(run, CertificateArn!);
  const detail = await describe_(run, CertificateArn!);
  if (detail.Status !== 'ISSUED') throw new Error(`${name}: ${detail.Status}`);
  return CertificateArn!;
}
