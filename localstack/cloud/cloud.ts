/**
 * The embedded local cloud: starts every emulator on loopback, provisions the resources from
 * infra/definitions, then runs the functions as Lambda would (API groups behind a local API Gateway,
 * workers behind SQS pollers). One call to start, one to stop; nothing is left running.
 *
 * The start, in order: the template's synthesis (alongside what follows), the data stores
 * (./services/data-stores.ts), the emulators (./services/local-emulators.ts), the API server (./api/local-api.ts), the deploy
 * (./deploy/deploy-stack.ts) and the sandbox sender, the functions with their environment (this machine's layer
 * is listed here) and IAM (./lambda/local-functions.ts, ./api/api-functions.ts, ./iam/local-iam.ts), the relay task and the workers thread,
 * then stack.json. Each step adds its stops to one sequence (./stack/stop-sequence.ts), run in reverse on stop
 * or when a later step fails.
 */
import { join } from 'node:path';
import { PutEmailIdentityFeedbackAttributesCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { SETTINGS } from '#infra/definitions';
import type { DnsEmulator } from '../emulators/dns';
import { localClients } from './services/aws-clients';
import { LOCAL_REGION } from './constants';
import { restoreMessaging, startDataStores } from './services/data-stores';
import { deployStack } from './deploy/deploy-stack';
import { stackNameOf } from './stack/stack-name';
import { checkEventSources } from './workers/event-source-checks';
import { startLocalApi } from './api/local-api';
import { startEmulators, startLocalOidc, type LocalEmulators } from './services/local-emulators';
import { localEndpoints, type LocalEndpoints } from './services/local-endpoints';
import { loadApiFunctions } from './api/api-functions';
import { localFunctions, useLocalIdentity } from './lambda/local-functions';
import { installLocalIam } from './iam/local-iam';
import { localRecoveryEnv } from './stack/recovery-settings';
import type { LocalRelayTask } from './relay-task/relay-task';
import { launchRelayTask } from './relay-task/relay-task-launch';
import { startS3Lifecycle } from './s3/s3-lifecycle-sweeper';
import { startTtlSweeper, ttlTables } from './dynamodb/dynamodb-ttl-sweep';
import { ensureVerifiedDomainIdentity } from './services/ses-verified-identity';
import { stackEnvironment } from './stack-environment';
import { removeStackFile, writeStackFile, type StackInfo } from './stack/stack-file';
import { stackHealth } from './stack-health';
import { startContext, type LocalCloudOptions, type StartContext } from './stack/start-context';
import type { LocalDeployment } from './template/deploy';
import { rolePolicies } from './template/iam-policies';
import { stackResources } from './template/stack-resources';
import type { SynthesizedTemplate } from './template/synthesize';
import { startTemplateSynthesis } from './deploy/template-source';
import { caBundle } from './services/webhook-inbox';
import { workersConfig } from './workers/workers-config';
import { startWorkersThread } from './workers/workers-host';
import { workloadEnvironments } from './lambda/workload-environment';

export type { LocalCloudOptions } from './stack/start-context';

/** stack.json of a local cloud: StackInfo plus the SMTP relay's address and the CA its certificate comes from. */
export type LocalStackInfo = StackInfo & {
  smtp?: string;
  smtp_ca_file?: string | null;
  mx?: string /** The relay task's process (./relay-task/relay-task.ts). */;
  smtp_pid?: number;
};

export interface LocalCloud {
  apiUrl: string;
  info: LocalStackInfo;
  stop(): Promise<void>;
}

/** What this machine changes around every function and the relay task (./lambda/function-environment.ts, layer 4). */
function localEnvironment(
  ctx: StartContext,
  endpoints: LocalEndpoints,
  { inbox, providers, route53, cloudflare }: LocalEmulators,
): Record<string, string> {
  const { options, dataDir } = ctx;
  return {
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    AWS_ENDPOINT_URL_SQS: endpoints.sqs,
    AWS_ENDPOINT_URL_SNS: endpoints.sns,
    AWS_ENDPOINT_URL_S3: endpoints.s3,
    AWS_ENDPOINT_URL_SESV2: endpoints.sesv2,
    AWS_ENDPOINT_URL_SCHEDULER: endpoints.scheduler,
    AWS_ENDPOINT_URL_KMS: endpoints.kms,
    // Hosted MTA-STS policies' certificates and custom domain names (docs/local-cloud/custom-domains.md).
    AWS_ENDPOINT_URL_ACM: endpoints.acm,
    AWS_ENDPOINT_URL_APIGATEWAYV2: endpoints.apigatewayv2,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    DNS_RESOLVERS: options.dnsResolvers || endpoints.dns,
    // Local receivers on loopback are allowed here (never private ranges or metadata addresses);
    // WEBHOOK_CA_FILE, when set in the environment, adds a trusted CA for local HTTPS receivers.
    WEBHOOK_ALLOW_LOOPBACK: process.env.WEBHOOK_ALLOW_LOOPBACK ?? 'true',
    WEBHOOK_CA_FILE: caBundle(join(dataDir, 'webhook-inbox'), inbox.caFile, process.env.WEBHOOK_CA_FILE?.trim() || undefined),
    // LINKS_BASE_URL in the environment overrides the template's (the API's URL), e.g. a tunnel's public URL.
    ...(process.env.LINKS_BASE_URL?.trim() ? { LINKS_BASE_URL: process.env.LINKS_BASE_URL.trim() } : {}),
    // Imports read the fake providers unless the environment names the real ones (docs/imports.md).
    LOCAL_PROVIDERS_URL: providers.url,
    PROVIDER_SENDGRID_URL: process.env.PROVIDER_SENDGRID_URL?.trim() || providers.urls.sendgrid,
    PROVIDER_SENDGRID_EU_URL: process.env.PROVIDER_SENDGRID_EU_URL?.trim() || providers.urls.sendgridEu,
    PROVIDER_POSTMARK_URL: process.env.PROVIDER_POSTMARK_URL?.trim() || providers.urls.postmark,
    PROVIDER_MAILGUN_URL: process.env.PROVIDER_MAILGUN_URL?.trim() || providers.urls.mailgun,
    PROVIDER_MAILGUN_EU_URL: process.env.PROVIDER_MAILGUN_EU_URL?.trim() || providers.urls.mailgunEu,
    // DNS apply writes through the fake Route 53 and Cloudflare unless the environment names others.
    AWS_ENDPOINT_URL_ROUTE_53: process.env.AWS_ENDPOINT_URL_ROUTE_53?.trim() || route53.url,
    CLOUDFLARE_API_URL: process.env.CLOUDFLARE_API_URL?.trim() || cloudflare.apiUrl,
    // Shorter recovery bounds than AWS's: a local stack killed mid-burst is whole again in a minute.
    ...localRecoveryEnv(process.env),
    // Sends read the key, account, claim and tenant every time (AWS: kept 1 s per process), so a revocation or a
    // suspension applies at once here; the benches set AWS's (docs/local-cloud/template.md).
    HOT_LOOKUPS_CACHE_MS: process.env.HOT_LOOKUPS_CACHE_MS ?? '0',
    ...options.env,
  };
}

/**
 * The sandbox sender's domain: a verified SES identity with its DKIM records in this DNS (SES sends only
 * from verified identities); no bounce and complaint mail to it (docs/deploy.md asks the operator the same).
 */
async function verifySandboxSender(ses: SESv2Client, dns: DnsEmulator, sandboxDomain: string): Promise<void> {
  if (!(await ensureVerifiedDomainIdentity(ses, dns, sandboxDomain)))
    throw new Error(`the local SES did not verify the sandbox domain ${sandboxDomain}`);
  await ses.send(new PutEmailIdentityFeedbackAttributesCommand({ EmailIdentity: sandboxDomain, EmailForwardingEnabled: false }));
}

interface StackInfoParts {
  apiUrl: string;
  customDomainsUrl: string;
  endpoints: LocalEndpoints;
  emulators: LocalEmulators;
  relay: LocalRelayTask;
  env: Record<string, string>;
  synthesized: SynthesizedTemplate;
  deployment: LocalDeployment;
}

function stackInfo(
  ctx: StartContext,
  { apiUrl, customDomainsUrl, endpoints, emulators, relay, env, synthesized, deployment }: StackInfoParts,
): LocalStackInfo {
  return {
    pid: process.pid,
    api_url: apiUrl,
    started_at: new Date().toISOString(),
    data_dir: ctx.dataDir,
    in_memory: ctx.options.inMemory,
    region: LOCAL_REGION,
    endpoints,
    webhook_inbox_url: emulators.inbox.url,
    custom_domains_url: customDomainsUrl,
    custom_domains_ca_file: emulators.acm.caFile,
    smtp: relay.smtp,
    smtp_ca_file: relay.caFile,
    smtp_pid: relay.pid,
    mx: relay.mx,
    env,
    template: { hash: synthesized.hash, file: synthesized.file },
    resources: stackResources(deployment),
  };
}

export async function startLocalCloud(options: LocalCloudOptions): Promise<LocalCloud> {
  const ctx = startContext(options);
  stackNameOf(options); // a name CloudFormation would refuse fails the start before anything runs
  // The template first (cached: ~0.1 s; after an edit of infra/ a synthesis of a few seconds), alongside the emulators' start.
  const template = startTemplateSynthesis(options);
  try {
    const stores = await startDataStores(ctx);
    const emulators = await startEmulators(ctx, stores.fauxqsEndpoint);
    const endpoints = localEndpoints(stores, emulators);
    const clients = localClients(ctx, endpoints);
    const api = await startLocalApi(ctx, emulators);
    // The local OpenID provider (LOCAL_OIDC=1), its client registered for the dashboard's callback on this API.
    const oidc = await startLocalOidc(ctx, api.url);
    const { deployment, synthesized } = await deployStack(ctx, template, clients, stores.fauxqs, api.url);
    // CreateApiMapping takes the template's HTTP APIs and stages only.
    emulators.apigatewayv2.deployApis(deployment.apis);
    await verifySandboxSender(clients.ses, emulators.dns, options.sandboxDomain ?? SETTINGS.SANDBOX_DOMAIN);
    restoreMessaging(stores, ctx.log);
    // The buckets' lifecycle rules, swept at start and hourly (./s3/s3-lifecycle-sweeper.ts), after the journal restored the objects.
    api.s3Lifecycle = startS3Lifecycle(deployment.stack, stores.fauxqs.s3, ctx.log);
    ctx.stops.add(async () => api.s3Lifecycle?.stop());
    // The table's TTL deletions, which DynamoDB Local never makes: by the functions' clock, on a period and on demand (./dynamodb/dynamodb-ttl-sweep.ts).
    api.ttlSweeper = startTtlSweeper({ dynamo: clients.dynamo, tables: ttlTables(deployment.stack), log: ctx.log });
    ctx.stops.add(async () => api.ttlSweeper?.stop());

    const localEnv = { ...localEnvironment(ctx, endpoints, emulators), ...oidc?.env };
    const environmentOf = workloadEnvironments(deployment, localEnv, emulators.secretsKeyFile);
    const policiesByRole = rolePolicies(deployment.stack);
    const functionOf = localFunctions(deployment, environmentOf, policiesByRole);
    const iam = await installLocalIam(ctx, deployment, policiesByRole, emulators, stores.fauxqs);
    useLocalIdentity();
    loadApiFunctions(api.gateway, deployment, functionOf);
    await checkEventSources(deployment, functionOf, iam);
    const relayTask = launchRelayTask(ctx, deployment, environmentOf, policiesByRole, iam.settings);
    // Workers run in their own thread, like separate Lambdas: delivery never blocks the API's event loop.
    const workers = await startWorkersThread(workersConfig(ctx, deployment, functionOf, iam.settings, endpoints), ctx.log);
    ctx.stops.add(() => workers.stop());
    api.runTask = (name) => workers.runTask(name);
    const relay = await relayTask.starting;

    const env = stackEnvironment(deployment, relayTask.task, localEnv, emulators.secretsKeyFile);
    api.health = stackHealth({ clients, dns: emulators.dns, fauxqs: stores.fauxqs, deployment, workers, relay });
    const info = stackInfo(ctx, {
      apiUrl: api.url,
      customDomainsUrl: api.customDomainsUrl,
      endpoints,
      emulators,
      relay,
      env,
      synthesized,
      deployment,
    });
    writeStackFile(ctx.dataDir, info);
    ctx.stops.addFinal(async () => removeStackFile(ctx.dataDir, process.pid));
    return { apiUrl: api.url, info, stop: () => ctx.stops.run() };
  } catch (error) {
    await ctx.stops.run();
    throw error;
  }
}
