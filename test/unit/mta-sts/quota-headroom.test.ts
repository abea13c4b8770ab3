/**
 * The deployment's headroom for hosted MTA-STS policies (`npm run admin -- mta-sts quota`): the AWS account's
 * certificates and regional custom domain names counted through the real ACM and API Gateway clients
 * (shared/adapters/aws/hosting-quota-usage.ts) against the ACM and API Gateway emulators, nothing else running.
 */
import { ACMClient, RequestCertificateCommand } from '@aws-sdk/client-acm';
import { ApiGatewayV2Client, CreateDomainNameCommand } from '@aws-sdk/client-apigatewayv2';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiGatewayEmulator, type ApiGatewayEmulator } from '#localstack/emulators/apigatewayv2';
import { AwsHostingQuotaUsage } from '#shared/adapters/aws/hosting-quota-usage';
import { hostingHeadroom } from '#shared/usecases/domains/mta-sts/quota-headroom';
import { issue, region, startAcm, type AcmRun } from '../emulators/acm/harness';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
let run: AcmRun;
let gateway: ApiGatewayEmulator;
let dataDir: string;
let acm: ACMClient;
let apigw: ApiGatewayV2Client;

beforeEach(async () => {
  run = await startAcm();
  dataDir = mkdtempSync(join(tmpdir(), 'headroom-test-'));
  gateway = await startApiGatewayEmulator({ dataDir, region, accountId: run.acm.accountId, certificates: run.acm, dns: run.dns });
  acm = new ACMClient({ endpoint: run.acm.url, region, credentials, maxAttempts: 1 });
  apigw = new ApiGatewayV2Client({ endpoint: gateway.url, region, credentials, maxAttempts: 1 });
});
afterEach(async () => {
  acm.destroy();
  apigw.destroy();
  await gateway.stop();
  await run.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function domainName(name: string): Promise<void> {
  const arn = await issue(run, name);
  await apigw.send(
    new CreateDomainNameCommand({
      DomainName: name,
      DomainNameConfigurations: [{ CertificateArn: arn, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }],
    }),
  );
}

it('counts every certificate (issued or pending) and every custom domain name of the account', async () => {
  const usage = new AwsHostingQuotaUsage(acm, apigw);
  expect(await hostingHeadroom(usage)).toEqual({
    custom_domain_names: { used: 0, quota: 120, available: 120 },
    certificates: { used: 0, quota: 2500, available: 2500 },
    policies_available: 120,
    policies_per_account: { free: 1, pro: 5, scale: 20, dedicated: 50 },
    link_domains_per_account: { free: 1, pro: 5, scale: 20, dedicated: 50 },
  });
  await domainName('mta-sts.inbound.a.example');
  await domainName('mta-sts.inbound.b.example');
  await issue(run, 'www.c.example'); // a certificate of something else in the account counts too
  await acm.send(new RequestCertificateCommand({ DomainName: 'mta-sts.inbound.d.example', ValidationMethod: 'DNS' })); // pending
  const report = await hostingHeadroom(usage, { domainNames: 3, certificates: 5 });
  expect(report).toMatchObject({
    custom_domain_names: { used: 2, quota: 3, available: 1 },
    certificates: { used: 4, quota: 5, available: 1 },
    policies_available: 1,
  });
  // Over a quota (lowered by hand, or a default the operator did not raise): nothing available, never negative.
  expect(await hostingHeadroom(usage, { domainNames: 1, certificates: 5 })).toMatchObject({
    custom_domain_names: { used: 2, quota: 1, available: 0 },
    policies_available: 0,
  });
});
