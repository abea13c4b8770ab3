/**
 * The API Gateway V2 emulator of the local cloud: custom domain names and their API mappings only, the
 * REST-JSON API under `/v2/domainnames` the unmodified `@aws-sdk/client-apigatewayv2` speaks (./routes.ts),
 * over the ACM emulator's certificates (../acm) and publishing each domain name's target in the DNS
 * emulator. State in `<dataDir>/domain-names.json`. See docs/local-cloud/custom-domains.md.
 *
 * Besides the API, the local cloud tells it which APIs and stages the template deployed (`deployApis`:
 * CreateApiMapping refuses others), and reads, for a TLS server name or Host, the API a request on a
 * custom domain name reaches and the certificate it is served with (`targetOf`).
 */
import { emulatorAccount, type EmulatorOptions } from '../emulator-options';
import { serveHttp } from '../http-server';
import { DEFAULT_REGIONAL_DOMAIN_NAME_QUOTA } from './domain-names';
import { apiGatewayHandler } from './handler';
import { regionalHostedZoneId } from './regional-endpoints';
import { openApiGatewayState, type CertificateSource, type DnsPublisher } from './state';
import type { DomainNameTarget } from './types';

export type { DomainNameTarget } from './types';
export type { CertificateSource, DnsPublisher } from './state';

export interface ApiGatewayEmulatorOptions extends EmulatorOptions {
  /** The ACM emulator (certificates must be ISSUED there and cover the name). */
  certificates: CertificateSource;
  /** The DNS emulator (each domain name's target is published there). */
  dns: DnsPublisher;
  /** The account's quota of regional custom domain names; default 120 (API Gateway's default). */
  domainNameQuota?: number;
}

export interface DeployedApi {
  apiId: string;
  stages: string[];
}

export interface ApiGatewayEmulator {
  /** Endpoint for the SDK (AWS_ENDPOINT_URL_APIGATEWAYV2). */
  url: string;
  /** The APIs and stages deployed (replaces what was told before). */
  deployApis(apis: readonly DeployedApi[]): void;
  /**
   * What a request for `host` (a TLS server name or Host header, port and case aside) reaches: the domain
   * name's mapping (the exact name, else a wildcard name over it) and its certificate; null when no domain
   * name matches or it has no mapping.
   */
  targetOf(host: string): DomainNameTarget | null;
  /** The certificate ARN of the domain name `host` names, mapped or not (what its TLS handshake is served with); null when none. */
  certificateArnOf(host: string): string | null;
  stop(): Promise<void>;
}

export async function startApiGatewayEmulator(options: ApiGatewayEmulatorOptions): Promise<ApiGatewayEmulator> {
  const log = options.log ?? (() => undefined);
  const { region, accountId } = emulatorAccount(options);
  regionalHostedZoneId(region); // a region it knows, or no start
  const state = openApiGatewayState({
    region,
    accountId,
    dataDir: options.dataDir,
    certificates: options.certificates,
    dns: options.dns,
    domainNameQuota: options.domainNameQuota ?? DEFAULT_REGIONAL_DOMAIN_NAME_QUOTA,
  });
  /** The domain name a host names: the exact name, else a wildcard name over its first label. */
  const domainNameFor = (host: string) => {
    const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
    return { name, record: state.domainNames.get(name) ?? state.domainNames.get(`*.${name.slice(name.indexOf('.') + 1)}`) };
  };
  const { url, stop } = await serveHttp(options, apiGatewayHandler(state, log));
  log(`apigatewayv2: listening on ${url}${options.dataDir ? `, domain names in ${options.dataDir}` : ', in memory'}`);
  return {
    url,
    deployApis: (apis) => {
      state.apis = new Map(apis.map((api) => [api.apiId, new Set(api.stages)]));
    },
    targetOf: (host) => {
      const { name, record } = domainNameFor(host);
      const mapping = record?.mappings.find((m) => m.apiMappingKey === '');
      if (!record || !mapping) return null;
      return {
        domainName: name,
        apiId: mapping.apiId,
        stage: mapping.stage,
        certificateArn: record.domainNameConfigurations[0].certificateArn,
      };
    },
    certificateArnOf: (host) => domainNameFor(host).record?.domainNameConfigurations[0].certificateArn ?? null,
    stop,
  };
}
