/**
 * Hosted MTA-STS's path on the real local cloud, through the SDK clients against the endpoints of
 * stack.json: the MTA-STS API (execute-api endpoint disabled) is not served on the default endpoint; a
 * certificate requested from the local ACM, validated by its CNAME in the local DNS, a custom domain name
 * on it mapped to the MTA-STS API, and an HTTPS GET with the domain name as SNI and Host (trusting the
 * ACM emulator's CA) reaches the `mta-sts` function; another path on that host is API Gateway's 404.
 */
import { randomBytes } from 'node:crypto';
import { ACMClient, DescribeCertificateCommand, RequestCertificateCommand } from '@aws-sdk/client-acm';
import { ApiGatewayV2Client, CreateApiMappingCommand, CreateDomainNameCommand } from '@aws-sdk/client-apigatewayv2';
import { customDomainRequest } from './harness/custom-domains';
import { api, stack } from './harness/stack';

it('serves the MTA-STS API only on a custom domain name mapped to it, with an ACM certificate validated by DNS', async () => {
  const { info } = stack();
  const config = {
    region: info.region,
    credentials: { accessKeyId: info.env.AWS_ACCESS_KEY_ID!, secretAccessKey: info.env.AWS_SECRET_ACCESS_KEY! },
    maxAttempts: 1,
  };
  const acm = new ACMClient({ ...config, endpoint: info.endpoints.acm });
  const apigw = new ApiGatewayV2Client({ ...config, endpoint: info.endpoints.apigatewayv2 });
  const apiId = info.env.MTA_STS_API_ID!;
  const name = `mta-sts.inbound.cd${randomBytes(4).toString('hex')}.example.com`;
  try {
    expect(apiId).toMatch(/^[0-9a-f]{10}$/);
    const onDefault = await api('GET', '/.well-known/mta-sts.txt');
    expect([onDefault.status, onDefault.body?.error?.code]).toEqual([404, 'not_found']);

    const { CertificateArn } = await acm.send(
      new RequestCertificateCommand({ DomainName: name, ValidationMethod: 'DNS', IdempotencyToken: 'mtasts' }),
    );
    const pending = (await acm.send(new DescribeCertificateCommand({ CertificateArn }))).Certificate!;
    expect(pending.Status).toBe('PENDING_VALIDATION');
    const record = pending.DomainValidationOptions![0]!.ResourceRecord!;
    const published = await api('PUT', '/_local/dns/records', { body: { name: record.Name, type: 'CNAME', values: [record.Value] } });
    expect(published.status).toBe(200);
    expect((await acm.send(new DescribeCertificateCommand({ CertificateArn }))).Certificate!.Status).toBe('ISSUED');

    await apigw.send(
      new CreateDomainNameCommand({
        DomainName: name,
        DomainNameConfigurations: [{ CertificateArn, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }],
      }),
    );
    const unmapped = await customDomainRequest(name, '/.well-known/mta-sts.txt');
    expect(unmapped).toMatchObject({ status: 404, body: '{"message":"Not Found"}' });
    await apigw.send(new CreateApiMappingCommand({ DomainName: name, ApiId: apiId, Stage: '$default' }));

    const policy = await customDomainRequest(name, '/.well-known/mta-sts.txt');
    // The function answered (today's placeholder: text/plain), not API Gateway's own JSON 404.
    expect(policy.type).toMatch(/^text\/plain/);
    expect(policy.body).not.toBe('{"message":"Not Found"}');
    const other = await customDomainRequest(name, '/emails');
    expect(other).toMatchObject({ status: 404, body: '{"message":"Not Found"}' });
  } finally {
    acm.destroy();
    apigw.destroy();
  }
});
