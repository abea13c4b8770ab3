/**
 * `npm start`: the whole service on this machine, no Docker. Prints the API URL and a ready line;
 * Ctrl-C, SIGTERM or SIGINT stop everything (no Java or Node process is left behind), also when sent to
 * `npm start`'s own process only: the script `exec`s node on ./launch.cjs (package.json), which runs this
 * file from its bundle in the same process, so npm passes the signal here (a `sh -c` in between died of
 * SIGTERM and ignored SIGINT, passing neither on). Not tsx's CLI (`node --import tsx localstack/start.ts`
 * runs it from the sources): tsx's CLI passes a signal on and SIGKILLs its child when the child has not
 * acknowledged it within 60 ms, which a busy stack missed (Ctrl-C then killed it without its orderly stop).
 * If npm ends without passing anything (SIGKILL), cloud/launcher-watch.ts sees it and stops the stack.
 *
 * Environment: PORT (API, default 3000), HOST (default 127.0.0.1), DATA_DIR (default .data),
 * DATA_IN_MEMORY=1 (nothing persisted), DYNAMODB_PORT / FAUXQS_PORT / SES_PORT / SCHEDULER_PORT
 * / DNS_PORT / CUSTOM_DOMAINS_PORT (default: free ephemeral ports), SMTP_PORT (the SMTP relay: 2587 with the default PORT, else a
 * free port; SMTP_TLS_KEY_FILE/SMTP_TLS_CERT_FILE give it a certificate), DNS_RESOLVERS (default: the local DNS emulator),
 * SANDBOX_DOMAIN, LOG_LEVEL=silent, LOCAL_QUEUE_VISIBILITY_SECONDS (tests: shorter visibility timeouts),
 * LOCAL_SES_REFUSE_IDENTITIES (tests: a regular expression; the SES emulator refuses to create matching identities),
 * LOCAL_SES_SANDBOX=1 (the local SES account is in the SES sandbox: 1 recipient/s, 200 a day unless set below),
 * LOCAL_SES_MAX_SEND_RATE / LOCAL_SES_MAX_24H_SEND (the local SES account's send rate and 24-hour quota, in
 * recipients; default LOCAL_CLOUD_QUOTA: finite, as every SES account's, so sends are paced as on AWS).
 * docs/local-cloud/ses.md, "Quota and account switches".
 * LOCAL_SES_EVENT_ORDER=ses (suppression-list events before other recipients' Delivery, as SES publishes
 * them; default `outcome`). docs/local-cloud/ses.md, "Events".
 * LOCAL_SES_BOUNCE_RECIPIENTS / LOCAL_SES_COMPLAINT_RECIPIENTS (tests: regular expressions; matching recipients
 * hard-bounce or complain as real addresses, which SES's suppression list records). docs/local-cloud/ses.md,
 * "Suppression list".
 * LOCAL_DYNAMODB_ENDPOINT (with DATA_IN_MEMORY=1: a running DynamoDB Local to use instead of starting one) and
 * LOCAL_STACK_NAME (default Mailservice; stacks sharing a DynamoDB Local need different names):
 * docs/local-cloud/dynamodb.md, "Stacks sharing one DynamoDB Local".
 * LOCAL_STREAM_SHARDS (the table's stream read as this many shards, as AWS has about one per partition: each
 * function sees the batches that many shards hand it; default 1, DynamoDB Local's own): docs/local-cloud/streams.md.
 * LOCAL_OIDC=1 (the local OpenID provider, and the dashboard's sign-in with it; LOCAL_OIDC_PORT its port):
 * docs/local-cloud/oidc.md. OIDC_ISSUER, OIDC_CLIENT_ID, ... name a provider of your own instead (docs/dashboard.md).
 */
import { startLocalCloud, type LocalCloud, type LocalCloudOptions } from './cloud/cloud';
import { LOCAL_CLOUD_QUOTA } from './emulators/ses/account-limits';
import { EVENT_ORDERS, type EventOrder } from './emulators/ses/simulator';
import { portFromEnv } from './cloud/stack/free-port';
import { npmLaunchers, watchLaunchers } from './cloud/stack/launcher-watch';
import { streamShardsFromEnv } from './cloud/streams/stream-lanes';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

function positiveNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

function eventOrder(env: NodeJS.ProcessEnv): EventOrder | undefined {
  const raw = env.LOCAL_SES_EVENT_ORDER;
  if (raw === undefined || raw === '') return undefined;
  if (!(EVENT_ORDERS as readonly string[]).includes(raw))
    throw new Error(`LOCAL_SES_EVENT_ORDER must be one of ${EVENT_ORDERS.join(', ')}, got "${raw}"`);
  return raw as EventOrder;
}

/** The local SES account's quota: the environment's, else LOCAL_CLOUD_QUOTA (the sandbox keeps its own). */
function localSesQuota(env: NodeJS.ProcessEnv): { maxSendRate?: number; max24HourSend?: number } {
  const sandbox = env.LOCAL_SES_SANDBOX === '1' || env.LOCAL_SES_SANDBOX === 'true';
  const defaults: { maxSendRate?: number; max24HourSend?: number } = sandbox ? {} : LOCAL_CLOUD_QUOTA;
  return {
    maxSendRate: positiveNumber(env, 'LOCAL_SES_MAX_SEND_RATE') ?? defaults.maxSendRate,
    max24HourSend: positiveInteger(env, 'LOCAL_SES_MAX_24H_SEND') ?? defaults.max24HourSend,
  };
}

async function main(): Promise<void> {
  const env = process.env;
  // Read in the functions' thread (cloud/workers-runtime.ts); refused here, before anything starts.
  streamShardsFromEnv(env);
  const started = Date.now();
  const log = (message: string) => console.error(`[local-cloud] ${message}`);
  // Run by `npm start`: stop when npm (or a shell between us) is gone, however it ended (./cloud/stack/launcher-watch.ts).
  let whenLauncherGone = (pid: number): void => {
    log(`npm start's process (or its shell, pid ${pid}) exited while starting: exiting`);
    process.exit(1); // DynamoDB Local's watchdog stops Java when our pipe to it closes
  };
  const ownScript = env.npm_lifecycle_script?.includes('localstack/launch.cjs') ? env.npm_lifecycle_script : undefined;
  watchLaunchers(npmLaunchers(ownScript), (pid) => whenLauncherGone(pid));
  const cloud = await startLocalCloud(localCloudOptions(env, log));
  printAddresses(cloud, started);

  const stop = orderlyStop(cloud, log);
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  whenLauncherGone = (pid) => void stop(`npm start's process (or its shell, pid ${pid}) exited`);
  // The parent (a test harness) closing our stdin means it is gone: stop too.
  if (env.STOP_ON_STDIN_CLOSE === '1') {
    process.stdin.on('end', () => void stop('stdin closed'));
    process.stdin.resume();
  }
}

/** The local cloud's options as the environment sets them (the variables: this file's header). */
function localCloudOptions(env: NodeJS.ProcessEnv, log: (message: string) => void): LocalCloudOptions {
  return {
    port: portFromEnv(env, 'PORT', 3000),
    host: env.HOST || '127.0.0.1',
    dataDir: env.DATA_DIR || '.data',
    inMemory: env.DATA_IN_MEMORY === '1' || env.DATA_IN_MEMORY === 'true',
    dynamodbEndpoint: env.LOCAL_DYNAMODB_ENDPOINT || undefined,
    stackName: env.LOCAL_STACK_NAME || undefined,
    ports: localCloudPorts(env),
    smtpPortExplicit: Boolean(env.SMTP_PORT),
    mxPortExplicit: Boolean(env.MX_PORT),
    dnsResolvers: env.DNS_RESOLVERS || undefined,
    visibilityOverrideSeconds: positiveInteger(env, 'LOCAL_QUEUE_VISIBILITY_SECONDS'),
    sandboxDomain: env.SANDBOX_DOMAIN || undefined,
    sesRefuseIdentities: env.LOCAL_SES_REFUSE_IDENTITIES ? new RegExp(env.LOCAL_SES_REFUSE_IDENTITIES, 'i') : undefined,
    sesSandbox: env.LOCAL_SES_SANDBOX === '1' || env.LOCAL_SES_SANDBOX === 'true',
    // Identities stay PENDING this long after verification starts (SES checks DNS periodically); only those matching the pattern when set.
    sesVerificationDelay: positiveInteger(env, 'LOCAL_SES_VERIFICATION_DELAY_MS')
      ? {
          ms: positiveInteger(env, 'LOCAL_SES_VERIFICATION_DELAY_MS')!,
          names: env.LOCAL_SES_VERIFICATION_DELAY_IDENTITIES ? new RegExp(env.LOCAL_SES_VERIFICATION_DELAY_IDENTITIES, 'i') : undefined,
        }
      : undefined,
    sesEventOrder: eventOrder(env),
    sesBounceRecipients: env.LOCAL_SES_BOUNCE_RECIPIENTS ? new RegExp(env.LOCAL_SES_BOUNCE_RECIPIENTS, 'i') : undefined,
    sesComplaintRecipients: env.LOCAL_SES_COMPLAINT_RECIPIENTS ? new RegExp(env.LOCAL_SES_COMPLAINT_RECIPIENTS, 'i') : undefined,
    sesSendQuota: localSesQuota(env),
    oidc: env.LOCAL_OIDC === '1' || env.LOCAL_OIDC === 'true',
    oidcPort: portFromEnv(env, 'LOCAL_OIDC_PORT', 0),
    log,
  };
}

/** The emulators' and listeners' ports: the environment's, else the defaults said below. */
function localCloudPorts(env: NodeJS.ProcessEnv): NonNullable<LocalCloudOptions['ports']> {
  return {
    dynamodb: portFromEnv(env, 'DYNAMODB_PORT', 0),
    fauxqs: portFromEnv(env, 'FAUXQS_PORT', 0),
    ses: portFromEnv(env, 'SES_PORT', 0),
    scheduler: portFromEnv(env, 'SCHEDULER_PORT', 0),
    dns: portFromEnv(env, 'DNS_PORT', 0),
    // A stable URL for the README's first webhook: 3001 next to the default API port.
    webhookInbox: portFromEnv(env, 'WEBHOOK_INBOX_PORT', portFromEnv(env, 'PORT', 3000) === 3000 ? 3001 : 0),
    // The SMTP relay: 2587 next to the default API port (587 needs root), else a free port.
    smtp: portFromEnv(env, 'SMTP_PORT', portFromEnv(env, 'PORT', 3000) === 3000 ? 2587 : 0),
    // The inbound MX listener: 2525 next to the default API port (25 needs root), else a free port.
    mx: portFromEnv(env, 'MX_PORT', portFromEnv(env, 'PORT', 3000) === 3000 ? 2525 : 0),
    // API Gateway's custom domain names over HTTPS (docs/local-cloud/custom-domains.md): a free port unless set.
    customDomains: portFromEnv(env, 'CUSTOM_DOMAINS_PORT', 0),
  };
}

/** Where everything is, and the ready line (`Ready in ... ms`: what scripts and tests wait for). */
function printAddresses(cloud: LocalCloud, started: number): void {
  const { info } = cloud;
  console.log(`API:      ${cloud.apiUrl}`);
  console.log(`Mailbox:  ${cloud.apiUrl}/_local/ses`);
  console.log(`Webhooks: ${info.webhook_inbox_url}hooks (a local HTTPS receiver; what it got: ${cloud.apiUrl}/_local/webhooks)`);
  console.log(`SMTP:     ${info.smtp} (STARTTLS, user mailservice)`);
  console.log(`MX:       ${info.mx} (inbound mail for receiving domains: docs/inbound.md)`);
  console.log(
    `Domains:  ${info.custom_domains_url} (API Gateway custom domain names, CA ${info.custom_domains_ca_file}: docs/local-cloud/custom-domains.md)`,
  );
  console.log(`Data:     ${info.in_memory ? '(in memory)' : info.data_dir}`);
  console.log(
    `Emulators: dynamodb ${info.endpoints.dynamodb}, sqs/sns/s3 ${info.endpoints.sqs}, ses ${info.endpoints.sesv2}, scheduler ${info.endpoints.scheduler}, dns ${info.endpoints.dns}`,
  );
  console.log(`Ready in ${Date.now() - started} ms: ${cloud.apiUrl} (template ${cloud.info.template?.hash.slice(0, 12) ?? '?'})`);
}

/** The stop of a signal or of the launcher's end: once (later ones ignored), the process exiting when done, or after 15 s. */
function orderlyStop(cloud: LocalCloud, log: (message: string) => void): (signal: string) => Promise<void> {
  let stopping = false;
  return async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    const timer = setTimeout(() => {
      log('stop took too long; exiting');
      process.exit(1);
    }, 15_000);
    await cloud.stop();
    clearTimeout(timer);
    log('stopped');
    process.exit(0);
  };
}

main().catch((error: unknown) => {
  console.error(`[local-cloud] failed to start: ${(error as Error).stack ?? String(error)}`);
  process.exit(1);
});
