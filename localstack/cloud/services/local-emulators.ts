/**
 * The local cloud's emulators and fakes, started in this order after the data stores: the DNS emulator
 * (first: the SES emulator verifies identities against it, unless DNS_RESOLVERS names other servers), SES and EventBridge Scheduler, the fake DNS
 * hosts for DNS apply, the HTTPS webhook inbox, the fake SendGrid, Postmark and Mailgun APIs, the records
 * the local cloud publishes itself, the secrets key file, KMS, and ACM with API Gateway's custom domain
 * names (hosted MTA-STS policies: docs/local-cloud/custom-domains.md).
 */
import { getServers } from 'node:dns';
import { join } from 'node:path';
import { SETTINGS } from '#infra/definitions';
import { ensureLocalKeyFile } from '#shared/adapters/secrets/local-secret-box';
import { startAcmEmulator, type AcmEmulator } from '../../emulators/acm';
import { startApiGatewayEmulator, type ApiGatewayEmulator } from '../../emulators/apigatewayv2';
import { startCloudflareEmulator, type CloudflareEmulator } from '../../emulators/cloudflare';
import { startDnsEmulator, type DnsEmulator } from '../../emulators/dns';
import type { DnsServers } from '../../emulators/dns-servers';
import { startKmsEmulator, type KmsEmulator } from '../../emulators/kms';
import { startOidcEmulator, type OidcEmulator } from '../../emulators/oidc';
import { DEMO_WEBHOOK_HOST, startProviderEmulator, type ProviderEmulator } from '../../emulators/providers';
import { ROUTE53_LOCAL_ACCESS_KEY_ID, startRoute53Emulator, type Route53Emulator } from '../../emulators/route53';
import { startSchedulerEmulator, type SchedulerEmulator } from '../../emulators/scheduler';
import { startSesEmulator, type SesEmulator } from '../../emulators/ses';
import { LOCAL_ACCOUNT_ID, LOCAL_CREDENTIALS, LOCAL_REGION } from '../constants';
import { emulatorDnsServers } from '../emulator-dns-servers';
import { clockOffsetMs } from '../stack/local-clock';
import { cachedAcmCa } from '../tls/local-tls-cache';
import type { StartContext } from '../stack/start-context';
import { startWebhookInbox, type WebhookInbox } from './webhook-inbox';

export interface LocalEmulators {
  dns: DnsEmulator;
  ses: SesEmulator;
  scheduler: SchedulerEmulator;
  route53: Route53Emulator;
  cloudflare: CloudflareEmulator;
  inbox: WebhookInbox;
  providers: ProviderEmulator;
  kms: KmsEmulator;
  acm: AcmEmulator;
  apigatewayv2: ApiGatewayEmulator;
  /** DATA_DIR/secrets.key: stored secrets (DKIM keys) sealed before the KMS emulator still open with it. */
  secretsKeyFile: string;
}

/** fauxqs as the emulators reach it (SES publishes to SNS, the scheduler sends to SQS). */
interface AwsAccess {
  endpoint: string;
  region: string;
  credentials: typeof LOCAL_CREDENTIALS;
}

export async function startEmulators(ctx: StartContext, fauxqsEndpoint: string): Promise<LocalEmulators> {
  const { options, host, log, stops } = ctx;
  const awsAccess: AwsAccess = { endpoint: fauxqsEndpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };
  // Names without local records are forwarded to the system's resolvers. Started first: the SES
  // emulator verifies identities against it (docs/local-cloud/ses.md, "Identity verification"), or at
  // DNS_RESOLVERS when set, except the local cloud's own names (../emulator-dns-servers.ts).
  const dns = await startDnsEmulator({ port: options.ports?.dns ?? 0, host, dataDir: ctx.persistDir('dns'), upstream: getServers(), log });
  stops.add(() => dns.stop());
  // SES and ACM read what the functions read: DNS_RESOLVERS when set (../emulator-dns-servers.ts).
  const emulatorDns = emulatorDnsServers(options.dnsResolvers, dns.address, [
    options.sandboxDomain ?? SETTINGS.SANDBOX_DOMAIN,
    returnPathHost(),
  ]);
  const [ses, scheduler] = await Promise.all([
    startSes(ctx, emulatorDns, awsAccess),
    startSchedulerEmulator({ port: options.ports?.scheduler ?? 0, host, dataDir: ctx.persistDir('scheduler'), sqs: awsAccess, log }),
  ]);
  stops.add(
    () => ses.stop(),
    () => scheduler.stop(),
  );
  // Fake DNS hosts for DNS apply (docs/domains.md): Route 53's API and Cloudflare's, their zones views
  // over the DNS emulator's records, so what apply writes is what verification reads.
  const [route53, cloudflare] = await Promise.all([
    startRoute53Emulator({
      dns,
      host,
      dataDir: ctx.persistDir('route53'),
      accessKeys: [LOCAL_CREDENTIALS.accessKeyId, ROUTE53_LOCAL_ACCESS_KEY_ID],
      log,
    }),
    startCloudflareEmulator({ dns, host, dataDir: ctx.persistDir('cloudflare'), log }),
  ]);
  stops.add(
    () => route53.stop(),
    () => cloudflare.stop(),
  );
  // The local HTTPS webhook inbox (first-run webhooks without a public endpoint); its CA is trusted by the functions.
  const inbox = await startWebhookInbox({ dir: join(ctx.dataDir, 'webhook-inbox'), port: options.ports?.webhookInbox ?? 0, host });
  stops.add(() => inbox.stop());
  // Fake SendGrid, Postmark and Mailgun APIs for imports (docs/imports.md, "Trying it locally"), with demo accounts.
  const providers = await startProviderEmulator({ port: options.ports?.providers ?? 0, host });
  stops.add(() => providers.close());
  publishLocalRecords(dns);
  // Stored secrets (DKIM keys) are sealed with a local key file, as KMS does in AWS.
  const secretsKeyFile = join(ctx.dataDir, 'secrets.key');
  ensureLocalKeyFile(secretsKeyFile);
  // The KMS emulator holds the secrets key the template defines (docs/local-cloud/kms.md).
  const kms = await startKmsEmulator({
    port: 0,
    host,
    dataDir: ctx.persistDir('kms'),
    region: LOCAL_REGION,
    accountId: LOCAL_ACCOUNT_ID,
    log,
  });
  stops.add(() => kms.stop());
  const { acm, apigatewayv2 } = await startCustomDomains(ctx, dns, emulatorDns);
  return { dns, ses, scheduler, route53, cloudflare, inbox, providers, kms, acm, apigatewayv2, secretsKeyFile };
}

/**
 * ACM and API Gateway's custom domain names (docs/local-cloud/custom-domains.md): certificates validated
 * against `emulatorDns` (what the functions read), by the functions' clock (PUT /_local/clock moves the 72-hour validation
 * window); the CA in DATA_DIR/acm even in memory (stack.json names it: what clients trust).
 */
async function startCustomDomains(
  ctx: StartContext,
  dns: DnsEmulator,
  emulatorDns: DnsServers,
): Promise<{ acm: AcmEmulator; apigatewayv2: ApiGatewayEmulator }> {
  const { host, log, stops } = ctx;
  // The checkout's cached CA (../tls/local-tls-cache.ts): the emulator makes one only where a folder has none.
  await cachedAcmCa(join(ctx.dataDir, 'acm'));
  const acm = await startAcmEmulator({
    host,
    dataDir: ctx.persistDir('acm'),
    caDir: join(ctx.dataDir, 'acm'),
    region: LOCAL_REGION,
    accountId: LOCAL_ACCOUNT_ID,
    dnsResolver: emulatorDns,
    now: () => Date.now() + clockOffsetMs(),
    log,
  });
  stops.add(() => acm.stop());
  const apigatewayv2 = await startApiGatewayEmulator({
    host,
    dataDir: ctx.persistDir('apigatewayv2'),
    region: LOCAL_REGION,
    accountId: LOCAL_ACCOUNT_ID,
    certificates: acm,
    dns,
    log,
  });
  stops.add(() => apigatewayv2.stop());
  return { acm, apigatewayv2 };
}

function startSes(ctx: StartContext, emulatorDns: DnsServers, sns: AwsAccess): Promise<SesEmulator> {
  const { options } = ctx;
  return startSesEmulator({
    port: options.ports?.ses ?? 0,
    host: ctx.host,
    dataDir: ctx.persistDir('ses'),
    // SES resource ARNs (tenant associations) name this region and account, as the functions build them.
    region: LOCAL_REGION,
    accountId: LOCAL_ACCOUNT_ID,
    sns,
    refuseIdentities: options.sesRefuseIdentities,
    dnsResolver: emulatorDns,
    verificationDelay: options.sesVerificationDelay,
    sandbox: options.sesSandbox,
    sendQuota: options.sesSendQuota,
    eventOrder: options.sesEventOrder,
    bounceRecipients: options.sesBounceRecipients,
    complaintRecipients: options.sesComplaintRecipients,
    log: ctx.log,
  });
}

/** The records the local cloud publishes in its own DNS emulator, as the internet and an operator would. */
function publishLocalRecords(dns: DnsEmulator): void {
  // The demo accounts' webhook URLs must resolve to a public address for their import to pass the URL
  // check (they are imported disabled: nothing is ever sent there).
  dns.setRecords({ name: DEMO_WEBHOOK_HOST, type: 'A', values: ['93.184.215.14'] });
  // The operator's MAIL FROM host (docs/domains.md, "Operators: the MAIL FROM host"): customers' rp.<domain>
  // CNAMEs lead here, so the SES emulator finds the MX of their custom MAIL FROM domains, as SES does.
  dns.setRecords({ name: returnPathHost(), type: 'MX', values: [`10 feedback-smtp.${LOCAL_REGION}.amazonses.com`] });
  dns.setRecords({ name: returnPathHost(), type: 'TXT', values: ['v=spf1 include:amazonses.com ~all'] });
  // What that include finds: Amazon SES's sending addresses, as `amazonses.com` publishes them (SES Developer
  // Guide, "Authenticating Email with SPF in Amazon SES"; `dig TXT amazonses.com`), so a receiving side's SPF
  // check of mail SES sends from a customer's MAIL FROM domain (one of these addresses) passes here as there.
  dns.setRecords({ name: 'amazonses.com', type: 'TXT', values: [AMAZON_SES_SPF] });
}

/** `amazonses.com`'s SPF record (the addresses SES sends from). */
export const AMAZON_SES_SPF =
  'v=spf1 ip4:199.255.192.0/22 ip4:199.127.232.0/22 ip4:54.240.0.0/18 ip4:69.169.224.0/20 ip4:23.249.208.0/20 ip4:23.251.224.0/19 ip4:76.223.176.0/20 ip4:54.240.64.0/19 ip4:54.240.96.0/19 ip4:76.223.128.0/19 ip4:216.221.160.0/19 ip4:206.55.144.0/20 -all';

/** The operator's MAIL FROM host (RETURN_PATH_HOST). */
function returnPathHost(): string {
  return (process.env.RETURN_PATH_HOST?.trim() || SETTINGS.RETURN_PATH_HOST).toLowerCase();
}

/**
 * The local OpenID provider (docs/local-cloud/oidc.md), when LOCAL_OIDC asks for it and the developer did not
 * name a provider of their own (OIDC_ISSUER): started once the API's URL is known, its client's redirect URI
 * the dashboard's callback there. Its settings are this machine's (the functions' local environment).
 */
export async function startLocalOidc(
  ctx: StartContext,
  apiUrl: string,
): Promise<{ emulator: OidcEmulator; env: Record<string, string> } | null> {
  if (!ctx.options.oidc || process.env.OIDC_ISSUER?.trim()) return null;
  const api = new URL(apiUrl);
  const callback = '/dashboard/sign-in/oidc/callback';
  const redirectUris = [...new Set([`${api.origin}${callback}`, `http://localhost:${api.port}${callback}`])];
  const emulator = await startOidcEmulator({ host: ctx.host, port: ctx.options.oidcPort ?? 0, redirectUris, log: ctx.log });
  ctx.stops.add(() => emulator.stop());
  return {
    emulator,
    env: {
      OIDC_ISSUER: emulator.issuer,
      OIDC_CLIENT_ID: emulator.clientId,
      OIDC_LABEL: process.env.OIDC_LABEL?.trim() || emulator.label,
      ...(process.env.OIDC_ALLOWED_DOMAINS?.trim() ? { OIDC_ALLOWED_DOMAINS: process.env.OIDC_ALLOWED_DOMAINS.trim() } : {}),
    },
  };
}
