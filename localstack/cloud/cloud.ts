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
import { API_GROUPS, SCHEDULED_TASKS, SECRETS_KEY, SETTINGS, STREAM_WORKERS, WORKERS } from '../../infra/definitions';
import { localRecoveryEnv } from './recovery-settings';
import { queueBacklog } from './queue-backlog';
import { startSchedulerEmulator } from '../emulators/scheduler';
import { startSesEmulator } from '../emulators/ses';
import type { EventOrder } from '../emulators/ses/simulator';
import { startDnsEmulator, type DnsRecordSet, type DnsRecordType } from '../emulators/dns';
import { getServers } from 'node:dns';
import { ensureLocalKeyFile } from '../../shared/secrets/local-secret-box';
import { createApiServer, type LocalPages } from './api-server';
import { caBundle, startWebhookInbox } from './webhook-inbox';
import { DEMO_WEBHOOK_HOST, startProviderEmulator } from '../emulators/providers/server';
import { ROUTE53_LOCAL_ACCESS_KEY_ID, startRoute53Emulator } from '../emulators/route53';
import { startCloudflareEmulator } from '../emulators/cloudflare';
import { LOCAL_ACCOUNT_ID, LOCAL_CREDENTIALS, LOCAL_REGION } from './constants';
import { ENV, loadConfig } from '../../shared/config';
import { buildServices } from '../../shared/services';
import { startDynamoDbLocal } from './dynamodb';
import type { ApiHandler } from './lambda-http';
import { provision } from './provision';
import { startWorkersThread } from './workers-host';
import { removeStackFile, writeStackFile, type StackInfo } from './stack-file';
import { MessagingJournal } from './messaging-journal';
import { startFauxqsServer } from './fauxqs';
import { startLocalSmtpRelay } from './smtp-relay';
import { startLocalMxListener } from './mx-listener';

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
export type LocalStackInfo = StackInfo & { smtp?: string; smtp_ca_file?: string | null; mx?: string };

export interface LocalCloud {
  apiUrl: string;
  info: LocalStackInfo;
  stop(): Promise<void>;
}

const PROJECT_ROOT = resolve(__dirname, '..', '..');

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolvePort(typeof address === 'object' && address ? address.port : port);
    });
  });
}

async function loadHandler<T>(entry: string): Promise<T> {
  const module = (await import(join(PROJECT_ROOT, entry))) as { handler?: T; default?: { handler?: T } };
  const handler = module.handler ?? module.default?.handler;
  if (!handler) throw new Error(`${entry} does not export a handler`);
  return handler;
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

    const clientOptions = { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 2 };
    const dynamoClient = new DynamoDBClient({ ...clientOptions, endpoint: dynamo.endpoint });
    const sesClient = new SESv2Client({ ...clientOptions, endpoint: ses.url });
    const schedulerClient = new SchedulerClient({ ...clientOptions, endpoint: scheduler.url });
    const sqsClient = new SQSClient({ ...clientOptions, endpoint: fauxqsEndpoint });
    stops.push(async () => {
      for (const client of [dynamoClient, sesClient, schedulerClient, sqsClient]) client.destroy();
    });
    const sandboxDomain = options.sandboxDomain ?? SETTINGS.SANDBOX_DOMAIN;
    const resources = await provision({ dynamo: dynamoClient, ses: sesClient, scheduler: schedulerClient }, fauxqs, {
      visibilityOverrideSeconds: options.visibilityOverrideSeconds,
      sandboxIdentity: { domain: sandboxDomain, dns },
    });
    if (journal) {
      const restored = journal.restore();
      if (restored.messages || restored.objects) log(`restored ${restored.messages} queued messages and ${restored.objects} stored objects`);
    }

    // The API listens before the functions start: their environment names its URL (LINKS_BASE_URL, the
    // base of signed links). Until the functions are loaded, /health answers 503 starting.
    const apiHandlers: Record<string, ApiHandler> = {};
    let health: LocalPages['health'] = async () => ({ ok: false, components: { functions: 'starting' } });
    const server = createApiServer(
      apiHandlers,
      {
        health: () => health(),
        sesMessages: (query) => ses.findMessages(query),
        sesIdentities: () => ses.listIdentities(),
        sesMailboxHtml: () => ses.mailboxHtml(),
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

    const endpoints = { dynamodb: dynamo.endpoint, sqs: fauxqsEndpoint, sns: fauxqsEndpoint, s3: fauxqsEndpoint, sesv2: ses.url, scheduler: scheduler.url, dns: dns.address };
    const functionEnv: Record<string, string> = {
      ...resources.env,
      AWS_REGION: LOCAL_REGION,
      [ENV.awsAccountId]: LOCAL_ACCOUNT_ID,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
      AWS_ENDPOINT_URL_SQS: endpoints.sqs,
      AWS_ENDPOINT_URL_SNS: endpoints.sns,
      AWS_ENDPOINT_URL_S3: endpoints.s3,
      AWS_ENDPOINT_URL_SESV2: endpoints.sesv2,
      AWS_ENDPOINT_URL_SCHEDULER: endpoints.scheduler,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      SANDBOX_DOMAIN: sandboxDomain,
      DNS_RESOLVERS: options.dnsResolvers || dns.address,
      // Local receivers on loopback are allowed here (never private ranges or metadata addresses);
      // WEBHOOK_CA_FILE, when set in the environment, adds a trusted CA for local HTTPS receivers.
      WEBHOOK_ALLOW_LOOPBACK: process.env.WEBHOOK_ALLOW_LOOPBACK ?? 'true',
      WEBHOOK_CA_FILE: caBundle(join(dataDir, 'webhook-inbox'), inbox.caFile, process.env.WEBHOOK_CA_FILE?.trim() || undefined),
      [SECRETS_KEY.localFileEnvVar]: secretsKeyFile,
      // Signed links (unsubscribe, tracking) point at this API (LINKS_BASE_URL in the environment overrides
      // it, e.g. a tunnel's public URL).
      LINKS_BASE_URL: process.env.LINKS_BASE_URL?.trim() || apiUrl,
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
    // Functions read their configuration from the environment at cold start, as in Lambda.
    Object.assign(process.env, functionEnv);

    for (const group of API_GROUPS) apiHandlers[group.name] = await loadHandler<ApiHandler>(group.entry);

    // Workers run in their own thread, like separate Lambdas: delivery never blocks the API's event loop.
    const workers = await startWorkersThread(
      {
        sqsEndpoint: fauxqsEndpoint,
        workers: WORKERS,
        queues: Object.fromEntries(Object.entries(resources.queues).map(([id, queue]) => [id, { url: queue.url, arn: queue.arn }])),
        // The table's stream feeds the stream workers (the outbox relay); docs/local-cloud/streams.md.
        streams: resources.streamArn
          ? {
              dynamodbEndpoint: dynamo.endpoint,
              streamArn: resources.streamArn,
              workers: STREAM_WORKERS,
              onFailureQueues: resources.onFailureQueues,
              checkpointFile: persistDir('stream-checkpoints.json'),
            }
          : undefined,
        tasks: SCHEDULED_TASKS,
      },
      log,
    );
    stops.push(() => workers.stop());

    // The SMTP relay: the product's relay in this process, on the same services as the functions.
    // One set of services for both listeners, built after the functions' environment is set (resource names, endpoints).
    const listenerServices = buildServices(loadConfig(process.env));
    const smtp = await startLocalSmtpRelay({ dir: join(dataDir, 'smtp-relay'), host, port: options.ports?.smtp ?? 0, explicitPort: options.smtpPortExplicit ?? false, log, services: listenerServices });
    stops.push(() => smtp.stop());
    // The inbound MX listener: mail for receiving domains, stored and handed to the inbound worker.
    const mx = await startLocalMxListener({ certDir: join(dataDir, 'smtp-relay'), host, port: options.ports?.mx ?? 0, explicitPort: options.mxPortExplicit ?? false, log, services: listenerServices });
    stops.push(() => mx.stop());

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
      for (const worker of WORKERS) components[`worker:${worker.name}`] = workers.alive() ? 'up' : 'down';
      const { streams, tasks } = await workers.status();
      for (const worker of STREAM_WORKERS) components[`stream:${worker.name}`] = workers.alive() ? (streams[worker.name] ?? 'down: not running') : 'down';
      for (const task of SCHEDULED_TASKS) components[`task:${task.name}`] = workers.alive() ? (tasks[task.name]?.state ?? 'down: not running') : 'down';
      // Stuck work, before a customer sees it: each queue's backlog and oldest message, the reconciler's re-drives.
      // The SMTP relay: its address, whether it listens, and its open connections.
      const relay = { address: smtp.address, state: smtp.listening() ? 'up' : 'down', connections: smtp.connections() };
      const inbound = { address: mx.address, state: mx.listening() ? 'up' : 'down', connections: mx.connections() };
      return { ok: Object.values(components).every((state) => state === 'up') && relay.state === 'up' && inbound.state === 'up', components, queues: queueBacklog(fauxqs), tasks, smtp: relay, mx: inbound };
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
      smtp: smtp.address,
      smtp_ca_file: smtp.caFile,
      mx: mx.address,
      env: functionEnv,
    };
    writeStackFile(dataDir, info);
    stops.unshift(async () => removeStackFile(dataDir, process.pid));
    return { apiUrl, info, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
