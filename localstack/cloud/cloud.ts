/**
 * The embedded local cloud: starts every emulator on loopback, provisions the resources from
 * infra/definitions.ts, then runs the functions as Lambda would (API groups behind a local API Gateway,
 * workers behind SQS pollers). One call to start, one to stop; nothing is left running.
 */
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { SchedulerClient, ListScheduleGroupsCommand } from '@aws-sdk/client-scheduler';
import { SESv2Client, ListConfigurationSetsCommand } from '@aws-sdk/client-sesv2';
import { SQSClient, ListQueuesCommand } from '@aws-sdk/client-sqs';
import { KMSClient } from '@aws-sdk/client-kms';
import { SCHEDULED_TASKS, SECRETS_KEY, SETTINGS, STREAM_WORKERS } from '../../infra/definitions';
import { startKmsEmulator } from '../emulators/kms';
import { synthesizedTemplate, templateFromFile } from './template/synthesize';
import { deployTemplate, type LocalDeployment } from './template/deploy';
import { stackResources } from './template/stack-resources';
import type { DeployedFunction } from './template/functions';
import { functionEnvironment, templateManagedNames } from './function-environment';
import { installFunctionEnvironments, loadFunctionHandler, type LocalFunction } from './function-context';
import { compileRoutes } from './routes';
import { settingContextKey } from '../../infra/constructs/util';
import { enforceIam, iamModeFromEnv, type IamSettings } from './iam-setup';
import { checkEventSourcePermissions, checkQueueVisibilityCoversTimeout, templateVisibilityTimeouts } from './event-source-permissions';
import { schedulerTargetAuthorizer, sesPublishAuthorizer, snsDeliveryCheck } from './service-deliveries';
import { authorizeSnsDeliveries } from './messaging-hooks';
import type { NamedPolicy } from '../iam/policy';
import { resourcePolicies, rolePolicies } from './template/iam-policies';
import { localRecoveryEnv } from './recovery-settings';
import { queueBacklog } from './queue-backlog';
import { startSchedulerEmulator } from '../emulators/scheduler';
import { startSesEmulator } from '../emulators/ses';
import type { EventOrder } from '../emulators/ses/simulator';
import { startDnsEmulator, type DnsRecordSet, type DnsRecordType } from '../emulators/dns';
import { getServers } from 'node:dns';
import { ensureLocalKeyFile } from '../../shared/secrets/local-secret-box';
import { createApiServer, type LocalGateway, type LocalPages } from './api-server';
import { caBundle, startWebhookInbox } from './webhook-inbox';
import { DEMO_WEBHOOK_HOST, startProviderEmulator } from '../emulators/providers/server';
import { ROUTE53_LOCAL_ACCESS_KEY_ID, startRoute53Emulator } from '../emulators/route53';
import { startCloudflareEmulator } from '../emulators/cloudflare';
import { LOCAL_ACCOUNT_ID, LOCAL_CREDENTIALS, LOCAL_REGION } from './constants';
import { startDynamoDbLocal } from './dynamodb';
import type { ApiHandler } from './lambda-http';
import { ensureVerifiedDomainIdentity } from './ses-verified-identity';
import { PutEmailIdentityFeedbackAttributesCommand } from '@aws-sdk/client-sesv2';
import { startWorkersThread } from './workers-host';
import { removeStackFile, writeStackFile, type StackInfo } from './stack-file';
import { MessagingJournal } from './messaging-journal';
import { startFauxqsServer } from './fauxqs';
import { startS3Lifecycle, type LifecycleSweeper as S3Lifecycle } from './s3-lifecycle-sweeper';
import { relayTaskSharedEnvironment, startLocalRelayTask } from './relay-task';

export interface LocalCloudOptions {
  /** API port; 0 = ephemeral. */
  port: number;
  host?: string;
  dataDir: string;
  /** Keep everything in memory (tests): nothing read from or written to dataDir but stack.json. */
  inMemory: boolean;
  ports?: Partial<Record<'dynamodb' | 'fauxqs' | 'ses' | 'scheduler' | 'dns' | 'webhookInbox' | 'smtp' | 'mx' | 'providers', number>>;
  /** The SMTP port was asked for explicitly (SMTP_PORT): taken is an error, not a reason to take a free one. */
  smtpPortExplicit?: boolean;
  mxPortExplicit?: boolean;
  /** DNS servers the functions use (`host:port`, comma-separated); default: the local DNS emulator. */
  dnsResolvers?: string;
  sandboxDomain?: string;
  /** Shortens every queue's visibility timeout (tests: redelivery and DLQ in seconds). */
  visibilityOverrideSeconds?: number;
  /** Extra environment for the functions (e.g. LOG_LEVEL). */
  env?: Record<string, string>;
  /** The SES emulator refuses to create identities whose name matches (tests of the failure path). */
  sesRefuseIdentities?: RegExp;
  /** SES identities (matching `names`, or all) stay PENDING at least `ms` after verification starts (tests of the window). */
  sesVerificationDelay?: { ms: number; names?: RegExp };
  /** The local SES account is in the sandbox (LOCAL_SES_SANDBOX): quota 1/s and 200 a day unless sesSendQuota sets it. */
  sesSandbox?: boolean;
  /** The local SES account's send rate and 24-hour quota in recipients (default: none); docs/local-cloud/ses.md. */
  sesSendQuota?: { maxSendRate?: number; max24HourSend?: number };
  /** `ses` (LOCAL_SES_EVENT_ORDER): suppression-list events before the Delivery of other recipients, as SES publishes them. */
  sesEventOrder?: EventOrder;
  /** Recipients that hard-bounce / complain as real addresses (LOCAL_SES_BOUNCE_RECIPIENTS, LOCAL_SES_COMPLAINT_RECIPIENTS): SES's suppression list records them. */
  sesBounceRecipients?: RegExp;
  sesComplaintRecipients?: RegExp;
  log?: (message: string) => void;
}

/** stack.json of a local cloud: StackInfo plus the SMTP relay's address and the CA its certificate comes from. */
export type LocalStackInfo = StackInfo & { smtp?: string; smtp_ca_file?: string | null; mx?: string; /** The relay task's process (./relay-task.ts). */ smtp_pid?: number };

export interface LocalCloud {
  apiUrl: string;
  info: LocalStackInfo;
  stop(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolvePort(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/**
 * Settings a developer sets on `npm start` (SANDBOX_DOMAIN, INBOUND_MX_HOST, ...) are synthesis context, as
 * `cdk deploy -c inboundMxHost=...` gives them (infra/stacks/mailservice-stack.ts): the template carries
 * them to the functions. DNS_RESOLVERS and LINKS_BASE_URL are this machine's (local overrides instead).
 */
function settingsContext(env: NodeJS.ProcessEnv, sandboxDomain: string): Record<string, string> {
  const context: Record<string, string> = {};
  for (const name of Object.keys(SETTINGS)) {
    if (name === 'DNS_RESOLVERS' || name === 'LINKS_BASE_URL' || name === 'SANDBOX_DOMAIN') continue;
    const value = env[name]?.trim();
    if (value) context[settingContextKey(name)] = value;
  }
  if (sandboxDomain !== SETTINGS.SANDBOX_DOMAIN) context.sandboxDomain = sandboxDomain;
  return context;
}

/** A deployed function as the local runtime runs it: its template environment under the layers of ./function-environment.ts. */
function localFunction(fn: DeployedFunction, environment: Record<string, string>, policies: NamedPolicy[]): LocalFunction {
  return {
    name: fn.name,
    functionName: fn.functionName,
    arn: fn.arn,
    entry: fn.entry,
    handlerExport: fn.handlerExport,
    timeoutSeconds: fn.timeoutSeconds,
    memoryMb: fn.memoryMb,
    roleArn: fn.roleArn,
    env: environment,
    policies,
  };
}

export async function startLocalCloud(options: LocalCloudOptions): Promise<LocalCloud> {
  const log = options.log ?? (() => undefined);
  const host = options.host ?? '127.0.0.1';
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const persistDir = (name: string) => (options.inMemory ? undefined : join(dataDir, name));
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch((error) => log(`stop failed: ${(error as Error).message}`));
  };

  // The template first (cached: ~0.1 s; after an edit of infra/ a synthesis of a few seconds), alongside the emulators' start.
  const templateFile = process.env.LOCAL_TEMPLATE_FILE?.trim();
  const synthesizing = templateFile ? Promise.resolve().then(() => templateFromFile(resolve(templateFile))) : synthesizedTemplate(settingsContext(process.env, options.sandboxDomain ?? SETTINGS.SANDBOX_DOMAIN));
  synthesizing.catch(() => undefined);
  try {
    const [dynamo, fauxqs] = await Promise.all([
      startDynamoDbLocal({ port: options.ports?.dynamodb, dataDir: persistDir('dynamodb'), host }),
      startFauxqsServer({ port: options.ports?.fauxqs ?? 0, host: 'localhost' }),
    ]);
    stops.push(() => dynamo.stop());
    // SQS messages and S3 objects survive a kill: journaled before fauxqs answers (docs/local-cloud/messaging.md).
    const messagingDir = persistDir('messaging');
    const journal = messagingDir ? await MessagingJournal.open(messagingDir, log, join(dataDir, 'messaging.json')) : undefined;
    stops.push(async () => {
      await journal?.close();
      await fauxqs.stop();
    });
    const fauxqsEndpoint = `http://${host}:${fauxqs.port}`;
    const awsAccess = { endpoint: fauxqsEndpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };

    // Names without local records are forwarded to the system's resolvers. Started first: the SES
    // emulator verifies identities against it (docs/local-cloud/ses.md, "Identity verification").
    const dns = await startDnsEmulator({ port: options.ports?.dns ?? 0, host, dataDir: persistDir('dns'), upstream: getServers(), log });
    stops.push(() => dns.stop());
    const [ses, scheduler] = await Promise.all([
      startSesEmulator({
        port: options.ports?.ses ?? 0,
        host,
        dataDir: persistDir('ses'),
        // SES resource ARNs (tenant associations) name this region and account, as the functions build them.
        region: LOCAL_REGION,
        accountId: LOCAL_ACCOUNT_ID,
        sns: awsAccess,
        refuseIdentities: options.sesRefuseIdentities,
        dnsResolver: dns.address,
        verificationDelay: options.sesVerificationDelay,
        sandbox: options.sesSandbox,
        sendQuota: options.sesSendQuota,
        eventOrder: options.sesEventOrder,
        bounceRecipients: options.sesBounceRecipients,
        complaintRecipients: options.sesComplaintRecipients,
        log,
      }),
      startSchedulerEmulator({ port: options.ports?.scheduler ?? 0, host, dataDir: persistDir('scheduler'), sqs: awsAccess, log }),
    ]);
    stops.push(() => ses.stop());
    stops.push(() => scheduler.stop());
    // Fake DNS hosts for DNS apply (docs/domains.md): Route 53's API and Cloudflare's, their zones views
    // over the DNS emulator's records, so what apply writes is what verification reads.
    const [route53, cloudflare] = await Promise.all([
      startRoute53Emulator({ dns, host, dataDir: persistDir('route53'), accessKeys: [LOCAL_CREDENTIALS.accessKeyId, ROUTE53_LOCAL_ACCESS_KEY_ID], log }),
      startCloudflareEmulator({ dns, host, dataDir: persistDir('cloudflare'), log }),
    ]);
    stops.push(() => route53.stop(), () => cloudflare.stop());
    // The local HTTPS webhook inbox (first-run webhooks without a public endpoint); its CA is trusted below.
    const inbox = await startWebhookInbox({ dir: join(dataDir, 'webhook-inbox'), port: options.ports?.webhookInbox ?? 0, host });
    stops.push(() => inbox.stop());
    // Fake SendGrid, Postmark and Mailgun APIs for imports (docs/imports.md, "Trying it locally"), with demo accounts.
    const providers = await startProviderEmulator({ port: options.ports?.providers ?? 0, host });
    stops.push(() => providers.close());
    // The demo accounts' webhook URLs must resolve to a public address for their import to pass the URL
    // check (they are imported disabled: nothing is ever sent there).
    dns.setRecords({ name: DEMO_WEBHOOK_HOST, type: 'A', values: ['93.184.215.14'] });
    // The operator's MAIL FROM host (docs/domains.md, "Operators: the MAIL FROM host"): customers' rp.<domain>
    // CNAMEs lead here, so the SES emulator finds the MX of their custom MAIL FROM domains, as SES does.
    const returnPathHost = (process.env.RETURN_PATH_HOST?.trim() || SETTINGS.RETURN_PATH_HOST).toLowerCase();
    dns.setRecords({ name: returnPathHost, type: 'MX', values: [`10 feedback-smtp.${LOCAL_REGION}.amazonses.com`] });
    dns.setRecords({ name: returnPathHost, type: 'TXT', values: ['v=spf1 include:amazonses.com ~all'] });
    // Stored secrets (DKIM keys) are sealed with a local key file, as KMS does in AWS.
    const secretsKeyFile = join(dataDir, 'secrets.key');
    ensureLocalKeyFile(secretsKeyFile);

    // The KMS emulator holds the secrets key the template defines (docs/local-cloud/kms.md).
    const kms = await startKmsEmulator({ port: 0, host, dataDir: persistDir('kms'), region: LOCAL_REGION, accountId: LOCAL_ACCOUNT_ID, log });
    stops.push(() => kms.stop());

    const clientOptions = { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 2 };
    const dynamoClient = new DynamoDBClient({ ...clientOptions, endpoint: dynamo.endpoint });
    const sesClient = new SESv2Client({ ...clientOptions, endpoint: ses.url });
    const schedulerClient = new SchedulerClient({ ...clientOptions, endpoint: scheduler.url });
    const sqsClient = new SQSClient({ ...clientOptions, endpoint: fauxqsEndpoint });
    const kmsClient = new KMSClient({ ...clientOptions, endpoint: kms.url });
    stops.push(async () => {
      for (const client of [dynamoClient, sesClient, schedulerClient, sqsClient, kmsClient]) client.destroy();
    });
    const sandboxDomain = options.sandboxDomain ?? SETTINGS.SANDBOX_DOMAIN;

    // The API listens before the template is deployed: the template's ApiEndpoint (LINKS_BASE_URL, the base
    // of signed links) is its URL. Until the functions are loaded, /health answers 503 starting.
    const gateway: LocalGateway = { routes: [], handlers: {} };
    let s3Lifecycle: S3Lifecycle | undefined;
    let health: LocalPages['health'] = async () => ({ ok: false, components: { functions: 'starting' } });
    const server = createApiServer(
      gateway,
      {
        health: () => health(),
        sesMessages: (query) => ses.findMessages(query),
        sesIdentities: () => ses.listIdentities(),
        sesMailboxHtml: () => ses.mailboxHtml(),
        // The local S3's lifecycle sweep at a given time (POST /_local/s3/lifecycle-sweep; docs/local-cloud/s3.md).
        s3LifecycleSweep: (now, within) => s3Lifecycle?.sweep(now, within) ?? { expired: [], aborted: [] },
        webhookInbox: { list: (path) => inbox.list(path), clear: (path) => inbox.clear(path) },
        dns: {
          list: (name) => dns.listRecords(name),
          set: (body) => dns.setRecords(body as DnsRecordSet),
          remove: (name, type) => dns.deleteRecords(name, type as DnsRecordType | undefined),
        },
      },
      log,
    );
    const apiPort = await listen(server, options.port, host);
    stops.push(
      () =>
        new Promise<void>((resolveClose) => {
          server.close(() => resolveClose());
          server.closeAllConnections();
        }),
    );
    const apiUrl = `http://${host}:${apiPort}`;

    // Deploy the synthesized CDK template (docs/local-cloud/template.md): what AWS would create, from the
    // same template `npm run deploy` deploys.
    const synthesized = await synthesizing;
    log(`template ${synthesized.hash.slice(0, 12)} ${templateFile ? `from ${templateFile}` : synthesized.cached ? 'from the cache' : 'synthesized'} in ${synthesized.ms} ms`);
    const deployment: LocalDeployment = await deployTemplate({
      template: synthesized.template,
      identity: { stackName: 'Mailservice', region: LOCAL_REGION, accountId: LOCAL_ACCOUNT_ID, apiUrl },
      dataDir: options.inMemory ? undefined : dataDir,
      clients: { dynamo: dynamoClient, ses: sesClient, scheduler: schedulerClient, kms: kmsClient },
      fauxqs,
      visibilityOverrideSeconds: options.visibilityOverrideSeconds,
    });
    if (deployment.names === 'legacy') log('kept the data folder\'s resources under their names from before the template deploy (cloudformation.json records them now)');
    // The sandbox sender's domain: a verified SES identity with its DKIM records in this DNS (SES sends only
    // from verified identities); no bounce and complaint mail to it (docs/deploy.md asks the operator the same).
    if (!(await ensureVerifiedDomainIdentity(sesClient, dns, sandboxDomain))) throw new Error(`the local SES did not verify the sandbox domain ${sandboxDomain}`);
    await sesClient.send(new PutEmailIdentityFeedbackAttributesCommand({ EmailIdentity: sandboxDomain, EmailForwardingEnabled: false }));
    if (journal) {
      const restored = journal.restore();
      if (restored.messages || restored.objects) log(`restored ${restored.messages} queued messages and ${restored.objects} stored objects`);
    }
    // The buckets' lifecycle rules, swept at start and hourly (./s3-lifecycle-sweeper.ts), after the journal restored the objects.
    s3Lifecycle = startS3Lifecycle(deployment.stack, log);
    stops.push(async () => s3Lifecycle?.stop());

    const endpoints = { dynamodb: dynamo.endpoint, sqs: fauxqsEndpoint, sns: fauxqsEndpoint, s3: fauxqsEndpoint, sesv2: ses.url, scheduler: scheduler.url, kms: kms.url, dns: dns.address };
    // What this machine changes around every function (./function-environment.ts, layer 4).
    const localEnv: Record<string, string> = {
      AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
      AWS_ENDPOINT_URL_SQS: endpoints.sqs,
      AWS_ENDPOINT_URL_SNS: endpoints.sns,
      AWS_ENDPOINT_URL_S3: endpoints.s3,
      AWS_ENDPOINT_URL_SESV2: endpoints.sesv2,
      AWS_ENDPOINT_URL_SCHEDULER: endpoints.scheduler,
      AWS_ENDPOINT_URL_KMS: endpoints.kms,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      DNS_RESOLVERS: options.dnsResolvers || dns.address,
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
      ...options.env,
    };
    const managed = templateManagedNames([...deployment.functions.map((fn) => fn.environment), deployment.relayTask?.environment ?? {}]);
    const environmentOf = (template: Record<string, string>, runtime: { functionName: string; memoryMb: number; runtime: string } | { container: 'fargate' }) => {
      // Secrets sealed before the KMS emulator (a data folder's `v1:local:`) still open with the local key file,
      // for the functions the template gives the secrets key (shared/secrets/migrating-secret-box.ts).
      const legacySecrets = template[SECRETS_KEY.envVar] ? { [SECRETS_KEY.localFileEnvVar]: secretsKeyFile } : {};
      return functionEnvironment({ template, managed, base: process.env, local: { ...localEnv, ...legacySecrets }, runtime: { ...runtime, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS } });
    };
    const policiesByRole = rolePolicies(deployment.stack);
    const functions = new Map(deployment.functions.map((fn) => [fn.name, localFunction(fn, environmentOf(fn.environment, fn), policiesByRole.get(fn.roleLogicalId)!)]));
    // IAM on every SDK call of a function, against its role's policies (./iam-setup.ts); installed before the
    // functions' modules build their clients.
    const arnOfQueueUrl = new Map(Object.entries(deployment.queueUrls).map(([arn, url]) => [url, arn]));
    const iam: IamSettings = {
      mode: iamModeFromEnv(process.env),
      accountId: LOCAL_ACCOUNT_ID,
      region: LOCAL_REGION,
      resourcePolicies: Object.fromEntries(resourcePolicies(deployment.stack, (url) => arnOfQueueUrl.get(url) ?? url)),
      kmsAliases: Object.fromEntries(
        deployment.stack.ofType('AWS::KMS::Alias').map((id) => {
          const alias = deployment.stack.properties<{ AliasName: string; TargetKeyId: string }>(id);
          return [alias.AliasName, alias.TargetKeyId];
        }),
      ),
    };
    const enforcement = enforceIam(iam, log);
    // Service to service: SES publishes to the events topic only if the topic's policy lets it (./service-deliveries.ts).
    if (iam.mode === 'enforce') ses.authorizePublish(sesPublishAuthorizer(iam));
    // SNS delivers to a subscribed queue only if the queue's policy lets the topic (./service-deliveries.ts); else the message is dropped.
    if (iam.mode === 'enforce') {
      await authorizeSnsDeliveries(snsDeliveryCheck(iam, new Set(Object.keys(deployment.queueUrls))), log);
      stops.push(() => authorizeSnsDeliveries(null));
    }
    if (enforcement && iam.mode === 'enforce') {
      const policiesOfRoleArn = new Map(deployment.stack.ofType('AWS::IAM::Role').map((id) => [deployment.stack.record(id).attributes.Arn as string, policiesByRole.get(id)!]));
      scheduler.authorizeTargets(schedulerTargetAuthorizer(enforcement.authorizer, (arn) => policiesOfRoleArn.get(arn)));
    }
    const fnOf = (fn: DeployedFunction): LocalFunction => functions.get(fn.name)!;

    // The local cloud's own region and keys, for SDK reads of the environment outside any function's context:
    // the credential chain resolves on a client's first call, which for the SMTP relay and MX comes from a
    // socket event (Node does not carry the context into a socket's events).
    Object.assign(process.env, { AWS_REGION: LOCAL_REGION, AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey });
    // Functions read their configuration from their own environment at cold start, as in Lambda.
    installFunctionEnvironments();
    const apiFunctions = new Map(deployment.routes.map((route) => [route.function.name, fnOf(route.function)]));
    for (const fn of apiFunctions.values()) gateway.handlers[fn.name] = { handler: loadFunctionHandler<ApiHandler>(fn), timeoutSeconds: fn.timeoutSeconds };
    gateway.routes = compileRoutes(deployment.routes.map((route) => ({ routeKey: route.routeKey, target: route.function.name })));

    // What Lambda checks when it creates each SQS mapping, IAM or not: the queue's visibility covers the function's timeout.
    checkQueueVisibilityCoversTimeout(
      deployment.queueSources.map((s) => ({ fn: fnOf(s.function), queueArn: s.queueArn })),
      templateVisibilityTimeouts(deployment.stack),
    );
    // What Lambda checks when it creates each event source mapping: the role may read the source (./event-source-permissions.ts).
    if (enforcement && iam.mode === 'enforce') {
      await checkEventSourcePermissions(enforcement.authorizer, [
        ...deployment.queueSources.map((s) => ({ fn: fnOf(s.function), kind: 'sqs' as const, source: deployment.queueUrls[s.queueArn]! })),
        ...deployment.streamSources.map((s) => ({ fn: fnOf(s.function), kind: 'stream' as const, source: s.streamArn, onFailureQueueUrl: s.onFailureArn ? deployment.queueUrls[s.onFailureArn] : undefined })),
      ]);
    }
    // The SMTP relay and MX task: a process of its own, as ECS runs the container, with the task definition's
    // environment and secrets, its role for IAM, and ECS's stop (./relay-task.ts, docs/smtp.md).
    const relayTask = deployment.relayTask;
    if (!relayTask) throw new Error('the template has no SMTP relay task');
    const relayStarting = startLocalRelayTask({
      task: relayTask,
      containerEnvironment: (template) => environmentOf(template, { container: 'fargate' }),
      policies: policiesByRole.get(relayTask.roleLogicalId)!,
      iam,
      certDir: join(dataDir, 'smtp-relay'),
      host,
      ports: { smtp: options.ports?.smtp ?? 0, mx: options.ports?.mx ?? 0 },
      explicit: { smtp: options.smtpPortExplicit ?? false, mx: options.mxPortExplicit ?? false },
      log,
    });
    // Started alongside the workers thread (each takes about a second); a failure of either fails the start.
    relayStarting.catch(() => undefined);
    stops.push(async () => (await relayStarting.catch(() => undefined))?.stop());

    // Workers run in their own thread, like separate Lambdas: delivery never blocks the API's event loop.
    const onFailureOf = (arn: string | undefined) => (arn ? { url: deployment.queueUrls[arn]!, arn } : undefined);
    const workers = await startWorkersThread(
      {
        sqsEndpoint: fauxqsEndpoint,
        iam,
        workers: deployment.queueSources.map((source) => ({
          fn: fnOf(source.function),
          queueUrl: deployment.queueUrls[source.queueArn]!,
          queueArn: source.queueArn,
          batchSize: source.batchSize,
          maxConcurrency: source.maxConcurrency,
        })),
        // The table's stream feeds the stream workers (the outbox relay); docs/local-cloud/streams.md.
        streams: deployment.streamArn
          ? {
              dynamodbEndpoint: dynamo.endpoint,
              streamArn: deployment.streamArn,
              workers: deployment.streamSources.map((source) => ({
                fn: fnOf(source.function),
                startingPosition: source.startingPosition,
                batchSize: source.batchSize,
                maxBatchingWindowMs: source.maxBatchingWindowMs,
                filters: source.filters,
                retryAttempts: source.retryAttempts,
                bisectBatchOnFunctionError: source.bisectBatchOnFunctionError,
                reportBatchItemFailures: source.reportBatchItemFailures,
                onFailure: onFailureOf(source.onFailureArn),
              })),
              checkpointFile: persistDir('stream-checkpoints.json'),
            }
          : undefined,
        tasks: deployment.schedules.map((schedule) => ({
          fn: fnOf(schedule.function),
          // The local period of the task (infra/definitions.ts), LOCAL_TASK_PERIOD_MS overriding it.
          localEveryMs: SCHEDULED_TASKS.find((task) => task.name === schedule.function.name)?.localEveryMs ?? schedule.everyMs,
        })),
      },
      log,
    );
    stops.push(() => workers.stop());
    const relay = await relayStarting;


    // stack.json's `env`: every function's template environment at once with this machine's (not the process
    // environment passed through: scripts and tests read it into theirs), for scripts and tests acting as an administrator.
    const functionEnv: Record<string, string> = Object.assign(
      { AWS_REGION: LOCAL_REGION, AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey, [SECRETS_KEY.localFileEnvVar]: secretsKeyFile },
      ...deployment.functions.map((fn) => fn.environment),
      relayTaskSharedEnvironment(relayTask.environment),
      localEnv,
    ) as Record<string, string>;
    // The stream workers' on-failure queues (the template's *OnFailureQueueUrl outputs), for scripts reading them.
    for (const source of deployment.streamSources) {
      const definition = STREAM_WORKERS.find((worker) => worker.name === source.function.name);
      if (definition && source.onFailureArn) functionEnv[definition.onFailure.envVar] = deployment.queueUrls[source.onFailureArn]!;
    }

    const queueNames = deployment.stack.ofType('AWS::SQS::Queue').map((id) => deployment.stack.record(id).name!);
    health = async () => {
      const components: Record<string, string> = {};
      const check = async (name: string, probe: () => Promise<unknown>) => {
        try {
          await probe();
          components[name] = 'up';
        } catch (error) {
          components[name] = `down: ${(error as Error).message}`;
        }
      };
      await Promise.all([
        check('dynamodb', () => dynamoClient.send(new ListTablesCommand({ Limit: 1 }))),
        check('sqs_sns_s3', () => sqsClient.send(new ListQueuesCommand({ MaxResults: 1 }))),
        check('ses', () => sesClient.send(new ListConfigurationSetsCommand({}))),
        check('scheduler', () => schedulerClient.send(new ListScheduleGroupsCommand({}))),
        check('dns', async () => dns.listRecords()),
      ]);
      for (const source of deployment.queueSources) components[`worker:${source.function.name}`] = workers.alive() ? 'up' : 'down';
      const { streams, streamReads, tasks } = await workers.status();
      for (const source of deployment.streamSources) components[`stream:${source.function.name}`] = workers.alive() ? (streams[source.function.name] ?? 'down: not running') : 'down';
      for (const schedule of deployment.schedules) components[`task:${schedule.function.name}`] = workers.alive() ? (tasks[schedule.function.name]?.state ?? 'down: not running') : 'down';
      // Stuck work, before a customer sees it: each queue's backlog and oldest message, the reconciler's re-drives.
      // The SMTP relay: its address, whether it listens, and its open connections.
      const { smtp, mx } = await relay.health();
      return { ok: Object.values(components).every((state) => state === 'up') && smtp.state === 'up' && mx.state === 'up', components, queues: queueBacklog(fauxqs, queueNames), tasks, stream_reads: streamReads, smtp, mx };
    };

    const info: LocalStackInfo = {
      pid: process.pid,
      api_url: apiUrl,
      started_at: new Date().toISOString(),
      data_dir: dataDir,
      in_memory: options.inMemory,
      region: LOCAL_REGION,
      endpoints,
      webhook_inbox_url: inbox.url,
      smtp: relay.smtp,
      smtp_ca_file: relay.caFile,
      smtp_pid: relay.pid,
      mx: relay.mx,
      env: functionEnv,
      template: { hash: synthesized.hash, file: synthesized.file },
      resources: stackResources(deployment),
    };
    writeStackFile(dataDir, info);
    stops.unshift(async () => removeStackFile(dataDir, process.pid));
    return { apiUrl, info, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
