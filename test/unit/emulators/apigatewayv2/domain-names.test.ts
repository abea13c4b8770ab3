/**
 * The API Gateway V2 emulator's custom domain names and API mappings through the real
 * `@aws-sdk/client-apigatewayv2`, over a real ACM emulator (certificates issued by DNS validation) and a
 * real DNS emulator (the target's record, read with Node's resolver).
 */
import { Resolver } from 'node:dns/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ApiGatewayV2Client,
  CreateApiMappingCommand,
  CreateDomainNameCommand,
  DeleteApiMappingCommand,
  DeleteDomainNameCommand,
  GetApiMappingsCommand,
  GetDomainNameCommand,
  GetDomainNamesCommand,
} from '@aws-sdk/client-apigatewayv2';
import { RequestCertificateCommand } from '@aws-sdk/client-acm';
import { startApiGatewayEmulator, type ApiGatewayEmulator } from '#localstack/emulators/apigatewayv2';
import { describe_, issue, region, startAcm, type AcmRun } from '../acm/harness';

const API_ID = 'a1b2c3d4e5';
const NAME = 'mta-sts.inbound.example.com';
let run: AcmRun;
let gateway: ApiGatewayEmulator;
let client: ApiGatewayV2Client;
let dataDir: string;

async function startGateway(domainNameQuota?: number): Promise<void> {
  gateway = await startApiGatewayEmulator({
    dataDir,
    region,
    accountId: run.acm.accountId,
    certificates: run.acm,
    dns: run.dns,
    domainNameQuota,
  });
  gateway.deployApis([{ apiId: API_ID, stages: ['$default'] }]);
  client = new ApiGatewayV2Client({
    endpoint: gateway.url,
    region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
}

beforeEach(async () => {
  run = await startAcm();
  dataDir = mkdtempSync(join(tmpdir(), 'apigw-test-'));
  await startGateway();
});
afterEach(async () => {
  client.destroy();
  await gateway.stop();
  await run.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const createDomainName = (certificateArn: string, domainName = NAME) =>
  client.send(
    new CreateDomainNameCommand({
      DomainName: domainName,
      DomainNameConfigurations: [{ CertificateArn: certificateArn, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }],
    }),
  );

async function errorOf(promise: Promise<unknown>): Promise<{ name: string; message: string; $metadata?: { httpStatusCode?: number } }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

it('creates a domain name on an issued certificate: its target answers in DNS, the certificate is in use; a mapping routes it; delete frees both', async () => {
  const arn = await issue(run, NAME);
  const created = await createDomainName(arn);
  expect(created.$metadata.httpStatusCode).toBe(201);
  const [config] = created.DomainNameConfigurations!;
  expect(config).toMatchObject({
    CertificateArn: arn,
    DomainNameStatus: 'AVAILABLE',
    EndpointType: 'REGIONAL',
    SecurityPolicy: 'TLS_1_2',
    HostedZoneId: 'Z1UJRXOUMOOFQ8',
  });
  expect(config!.ApiGatewayDomainName).toMatch(/^d-[a-z0-9]{10}\.execute-api\.us-east-1\.amazonaws\.com$/);
  expect(created).toMatchObject({ DomainName: NAME, ApiMappingSelectionExpression: '$request.basepath' });
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([run.dns.address]);
  expect(await resolver.resolve4(config!.ApiGatewayDomainName!)).toEqual(['127.0.0.1']);
  expect((await describe_(run, arn)).InUseBy).toEqual([`arn:aws:apigateway:us-east-1::/domainnames/${NAME}`]);
  expect((await client.send(new GetDomainNameCommand({ DomainName: NAME }))).DomainNameConfigurations).toEqual(
    created.DomainNameConfigurations,
  );
  expect((await client.send(new GetDomainNamesCommand({}))).Items!.map((d) => d.DomainName)).toEqual([NAME]);

  expect(gateway.targetOf(NAME)).toBeNull(); // no mapping yet
  const mapping = await client.send(new CreateApiMappingCommand({ DomainName: NAME, ApiId: API_ID, Stage: '$default' }));
  expect(mapping).toMatchObject({ ApiId: API_ID, Stage: '$default', ApiMappingKey: '' });
  expect(gateway.targetOf(`${NAME.toUpperCase()}:8443`)).toEqual({
    domainName: NAME,
    apiId: API_ID,
    stage: '$default',
    certificateArn: arn,
  });
  expect(gateway.targetOf('other.example.com')).toBeNull();
  expect((await client.send(new GetApiMappingsCommand({ DomainName: NAME }))).Items).toEqual([
    expect.objectContaining({ ApiMappingId: mapping.ApiMappingId }),
  ]);
  expect((await errorOf(client.send(new CreateApiMappingCommand({ DomainName: NAME, ApiId: API_ID, Stage: '$default' })))).name).toBe(
    'ConflictException',
  );

  await client.send(new DeleteApiMappingCommand({ DomainName: NAME, ApiMappingId: mapping.ApiMappingId }));
  expect(gateway.targetOf(NAME)).toBeNull();
  expect((await errorOf(client.send(new DeleteApiMappingCommand({ DomainName: NAME, ApiMappingId: mapping.ApiMappingId })))).name).toBe(
    'NotFoundException',
  );
  const deleted = await client.send(new DeleteDomainNameCommand({ DomainName: NAME }));
  expect(deleted.$metadata.httpStatusCode).toBe(204);
  expect((await describe_(run, arn)).InUseBy).toEqual([]);
  await expect(resolver.resolve4(config!.ApiGatewayDomainName!)).rejects.toThrow();
  expect((await errorOf(client.send(new GetDomainNameCommand({ DomainName: NAME })))).name).toBe('NotFoundException');
});

it('refuses a domain name with a pending certificate, one for another name, an unknown one, or a name that exists (ConflictException)', async () => {
  const { CertificateArn: pending } = await run.client.send(new RequestCertificateCommand({ DomainName: NAME, ValidationMethod: 'DNS' }));
  expect(await errorOf(createDomainName(pending!))).toMatchObject({
    name: 'BadRequestException',
    message: expect.stringContaining("'ISSUED'"),
  });
  const other = await issue(run, 'mta-sts.inbound.example.org');
  expect(await errorOf(createDomainName(other))).toMatchObject({
    name: 'BadRequestException',
    message: expect.stringContaining('does not cover'),
  });
  expect(
    (await errorOf(createDomainName(`arn:aws:acm:us-east-1:${run.acm.accountId}:certificate/00000000-0000-0000-0000-000000000000`))).name,
  ).toBe('BadRequestException');
  const wildcard = await issue(run, '*.inbound.example.com');
  await createDomainName(wildcard);
  expect((await errorOf(createDomainName(wildcard))).name).toBe('ConflictException');
  expect((await errorOf(createDomainName(wildcard, 'a.mta-sts.inbound.example.com'))).message).toContain('does not cover');
});

it('refuses a mapping to an API or stage the local cloud did not deploy (NotFoundException), and mappings with a path key', async () => {
  await createDomainName(await issue(run, NAME));
  expect(
    await errorOf(client.send(new CreateApiMappingCommand({ DomainName: NAME, ApiId: 'zzzzzzzzzz', Stage: '$default' }))),
  ).toMatchObject({ name: 'NotFoundException', $metadata: { httpStatusCode: 404 } });
  expect((await errorOf(client.send(new CreateApiMappingCommand({ DomainName: NAME, ApiId: API_ID, Stage: 'prod' })))).name).toBe(
    'NotFoundException',
  );
  expect(
    (await errorOf(client.send(new CreateApiMappingCommand({ DomainName: NAME, ApiId: API_ID, Stage: '$default', ApiMappingKey: 'v1' }))))
      .name,
  ).toBe('BadRequestException');
  expect(
    (await errorOf(client.send(new CreateApiMappingCommand({ DomainName: 'nowhere.example.com', ApiId: API_ID, Stage: '$default' })))).name,
  ).toBe('NotFoundException');
});

it('refuses a regional domain name past the account quota, and a deleted one counts no more', async () => {
  client.destroy();
  await gateway.stop();
  await startGateway(1);
  const arn = await issue(run, '*.inbound.example.com');
  await createDomainName(arn, 'a.inbound.example.com');
  expect(await errorOf(createDomainName(arn, 'b.inbound.example.com'))).toMatchObject({
    name: 'BadRequestException',
    message: expect.stringContaining('maximum number'),
  });
  await client.send(new DeleteDomainNameCommand({ DomainName: 'a.inbound.example.com' }));
  await createDomainName(arn, 'b.inbound.example.com');
});

it('keeps domain names and mappings across a restart on the same data dir', async () => {
  const arn = await issue(run, NAME);
  await createDomainName(arn);
  await client.send(new CreateApiMappingCommand({ DomainName: NAME, ApiId: API_ID, Stage: '$default' }));
  client.destroy();
  await gateway.stop();
  await startGateway();
  expect(gateway.targetOf(NAME)).toEqual({ domainName: NAME, apiId: API_ID, stage: '$default', certificateArn: arn });
  expect((await client.send(new GetApiMappingsCommand({ DomainName: NAME }))).Items).toHaveLength(1);
});
