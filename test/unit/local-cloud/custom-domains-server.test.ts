/**
 * The custom domains' HTTPS listener with a fake gateway: the TLS server name picks the certificate (an
 * unknown name fails the handshake), the Host picks the mapped API's routes only, the function's event
 * names the custom domain name, and a Host or path of nothing mapped is API Gateway's 404.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { compileRoutes } from '#localstack/cloud/api/routes';
import { createCustomDomainsServer } from '#localstack/cloud/api/custom-domains-server';
import type { LocalGateway } from '#localstack/cloud/api/api-server';
import { writeLocalCa, type LocalCa } from '#localstack/cloud/tls/local-tls';

const NAME = 'mta-sts.inbound.example.com';
const UNMAPPED = 'mta-sts.inbound.example.org';
let dir: string;
let ca: LocalCa;
let port: number;
let server: ReturnType<typeof createCustomDomainsServer>;
const events: APIGatewayProxyEventV2[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'custom-domains-'));
  ca = await writeLocalCa(dir, { commonName: 'test CA', validDays: 1, extraDnsNames: [NAME, UNMAPPED] });
  const handler = async (event: APIGatewayProxyEventV2) => {
    events.push(event);
    return { statusCode: 200, headers: { 'content-type': 'text/plain' }, body: `policy for ${event.requestContext.domainName}` };
  };
  const gateway: LocalGateway = {
    routes: compileRoutes([{ routeKey: 'ANY /emails', target: 'emails' }]),
    apiRoutes: {
      mtasts0001: compileRoutes([{ routeKey: 'GET /.well-known/mta-sts.txt', target: 'mta-sts' }]),
      main000001: compileRoutes([{ routeKey: 'ANY /emails', target: 'emails' }]),
    },
    handlers: { 'mta-sts': { handler: handler as never, timeoutSeconds: 3 }, emails: { handler: handler as never, timeoutSeconds: 3 } },
  };
  const certificate = {
    certificateArn: 'arn:cert',
    domainNames: [NAME, UNMAPPED],
    privateKeyPem: readFileSync(ca.keyFile, 'utf8'),
    certificatePem: readFileSync(ca.certFile, 'utf8'),
    chainPem: readFileSync(ca.caFile, 'utf8'),
  };
  server = createCustomDomainsServer(
    gateway,
    {
      certificateArnOf: (host) => ([NAME, UNMAPPED].includes(host.replace(/:\d+$/, '')) ? 'arn:cert' : null),
      targetOf: (host) =>
        host.replace(/:\d+$/, '') === NAME
          ? { domainName: NAME, apiId: 'mtasts0001', stage: '$default', certificateArn: 'arn:cert' }
          : null,
      issuedCertificate: (arn) => (arn === 'arn:cert' ? certificate : undefined),
    },
    () => undefined,
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

function get(serverName: string, host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        servername: serverName,
        headers: { host: `${host}:${port}` },
        ca: readFileSync(ca.caFile),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

it("routes a request on a mapped domain name to its API's function, the event naming the domain name", async () => {
  events.length = 0;
  expect(await get(NAME, NAME, '/.well-known/mta-sts.txt')).toEqual({ status: 200, body: `policy for ${NAME}` });
  expect(events).toHaveLength(1);
  expect(events[0]!.headers.host).toBe(NAME);
  expect(events[0]!.requestContext).toMatchObject({
    domainName: NAME,
    domainPrefix: 'mta-sts',
    apiId: 'mtasts0001',
    stage: '$default',
    routeKey: 'GET /.well-known/mta-sts.txt',
  });
});

it("answers API Gateway's 404 for a path of no route of the mapped API (another API's routes not served), and for a Host of no mapping", async () => {
  events.length = 0;
  expect(await get(NAME, NAME, '/emails')).toEqual({ status: 404, body: '{"message":"Not Found"}' });
  expect(await get(NAME, UNMAPPED, '/.well-known/mta-sts.txt')).toEqual({ status: 404, body: '{"message":"Not Found"}' });
  expect(await get(UNMAPPED, UNMAPPED, '/.well-known/mta-sts.txt')).toEqual({ status: 404, body: '{"message":"Not Found"}' });
  expect(events).toHaveLength(0);
});

it('fails the TLS handshake for a server name of no domain name', async () => {
  await expect(get('unknown.example.com', NAME, '/.well-known/mta-sts.txt')).rejects.toThrow();
});
