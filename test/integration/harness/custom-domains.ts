/**
 * The local cloud's custom domain names as a client meets them (docs/local-cloud/custom-domains.md): HTTPS to
 * the custom domains' endpoint with the host as SNI and Host (trusting the ACM emulator's CA), the host found
 * through the DNS emulator, and the ACM and API Gateway state read with the SDK clients (hosted MTA-STS
 * policies, link domains).
 */
import { Resolver } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { ACMClient, ListCertificatesCommand } from '@aws-sdk/client-acm';
import { ApiGatewayV2Client, GetDomainNameCommand } from '@aws-sdk/client-apigatewayv2';
import { stack } from './stack';
import { waitWithTask } from './tasks';

export interface CustomDomainResponse {
  status: number;
  type: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A request to `https://<host><path>` on the custom domains' endpoint (at `address`: 127.0.0.1, or what DNS
 * answers for the host); no redirect followed. Rejects when no domain name serves the host (the TLS handshake fails).
 */
export function customDomainRequest(
  host: string,
  path: string,
  options: { address?: string; method?: string; headers?: Record<string, string> } = {},
): Promise<CustomDomainResponse> {
  const { info } = stack();
  const { port } = new URL(info.custom_domains_url!);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: options.address ?? '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        servername: host,
        headers: { ...options.headers, host },
        ca: readFileSync(info.custom_domains_ca_file!),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            type: res.headers['content-type'],
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The host's address as a client finds it: through DNS (the emulator), CNAME to the custom domain name's target, then its A record. */
export async function resolveHost(host: string): Promise<string> {
  const resolver = new Resolver();
  resolver.setServers([stack().info.endpoints.dns]);
  const [target] = await resolver.resolveCname(host);
  const [address] = await resolver.resolve4(target!);
  return address!;
}

/** ACM and API Gateway clients on the local cloud's endpoints (the caller destroys them). */
export function hostingClients(): { acm: ACMClient; apigw: ApiGatewayV2Client } {
  const { info } = stack();
  const config = {
    region: info.region,
    credentials: { accessKeyId: info.env.AWS_ACCESS_KEY_ID!, secretAccessKey: info.env.AWS_SECRET_ACCESS_KEY! },
    maxAttempts: 1,
  };
  return {
    acm: new ACMClient({ ...config, endpoint: info.endpoints.acm }),
    apigw: new ApiGatewayV2Client({ ...config, endpoint: info.endpoints.apigatewayv2 }),
  };
}

/** Whether the custom domain name `host` exists in the local API Gateway. */
export async function domainNameExists(apigw: ApiGatewayV2Client, host: string): Promise<boolean> {
  try {
    await apigw.send(new GetDomainNameCommand({ DomainName: host }));
    return true;
  } catch (error) {
    if ((error as Error).name === 'NotFoundException') return false;
    throw error;
  }
}

/** The ARNs of the certificates for `host` in the local ACM. */
export async function certificatesFor(acm: ACMClient, host: string): Promise<string[]> {
  const { CertificateSummaryList } = await acm.send(new ListCertificatesCommand({ MaxItems: 1000 }));
  return (CertificateSummaryList ?? []).filter((summary) => summary.DomainName === host).map((summary) => summary.CertificateArn!);
}

/** Waits for the domain-health task (its passes asked for) to have deleted the host's custom domain name and certificate. */
export function hostGone(
  clients: { acm: ACMClient; apigw: ApiGatewayV2Client },
  host: string,
  why: string,
  timeoutMs = 40_000,
): Promise<unknown> {
  return waitWithTask(
    'domain-health',
    async () => !(await domainNameExists(clients.apigw, host)) && (await certificatesFor(clients.acm, host)).length === 0,
    `${host}'s custom domain name and certificate to be deleted ${why}`,
    timeoutMs,
  );
}
