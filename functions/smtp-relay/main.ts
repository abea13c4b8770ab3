/**
 * The SMTP relay's container entry (Fargate, one long-running process): settings from the environment
 * (shared/doors/smtp/relay-config.ts; resource names as every function reads them, shared/config/config.ts), STARTTLS
 * with the key and certificate from SMTP_TLS_KEY_FILE/SMTP_TLS_CERT_FILE or SMTP_TLS_KEY/SMTP_TLS_CERT,
 * port SMTP_PORT (587). With MX_PORT set, the same process also runs the inbound MX listener
 * (shared/doors/mx/mx-server.ts, settings in shared/doors/mx/mx-config.ts) with the same certificate.
 * SIGTERM (a task stopping, a deploy): stop accepting connections, let open sessions finish their
 * message (SMTP_CLOSE_TIMEOUT_S, below ECS's stopTimeout), then exit.
 */
import { createMxServer } from '#shared/doors/mx/mx-server';
import { MX_ENV, mxPortFromEnv, mxSettingsFromEnv } from '#shared/doors/mx/mx-config';
import { logError, logInfo } from '#shared/lib/log';
import { buildBlobs } from '#shared/services/blobs';
import { buildInbound } from '#shared/services/inbound';
import { buildMailDomains } from '#shared/services/mail-domains';
import { buildQueues } from '#shared/services/messaging';
import { buildPlatform } from '#shared/services/platform';
import { buildSchedules } from '#shared/services/schedules';
import { buildSendingStack } from '#shared/services/sending';
import { buildSuppressions } from '#shared/services/suppressions';
import { portFromEnv, relaySettingsFromEnv, SMTP_ENV, tlsFromEnv } from '#shared/doors/smtp/relay-config';
import { createRelayServer } from '#shared/doors/smtp/relay-server';
import { reportSessions } from '#shared/doors/smtp/sessions-metric';

async function main(): Promise<void> {
  const env = process.env;
  const tls = tlsFromEnv(env);
  if (!tls)
    throw new Error(
      `No TLS certificate: set ${SMTP_ENV.tlsKeyFile} and ${SMTP_ENV.tlsCertFile} (or ${SMTP_ENV.tlsKey} and ${SMTP_ENV.tlsCert})`,
    );
  // The composition root: only the capabilities the relay and the MX listener use (shared/services/).
  const platform = buildPlatform();
  const stack = buildSendingStack(platform);
  const services = {
    ...platform,
    ...stack,
    ...buildSuppressions(platform),
    ...buildMailDomains(platform),
    ...buildInbound(platform, stack),
    ...buildBlobs(platform.config),
    ...buildSchedules(platform.config),
    // The MX listener's hand-over to the inbound worker; the relay's sends are enqueued by the outbox stream.
    ...buildQueues(platform, ['inboundQueue']),
  };
  const relaySettings = relaySettingsFromEnv(env);
  const relay = createRelayServer({ tls, ...relaySettings }, services);
  const host = env[SMTP_ENV.host]?.trim() || '0.0.0.0';
  const port = await relay.listen(portFromEnv(env, 587), host);
  logInfo('smtp relay listening', { host, port });

  const mxPort = mxPortFromEnv(env);
  const mx =
    mxPort === null ? null : createMxServer({ tls, ...mxSettingsFromEnv(env), closeTimeoutMs: relaySettings.closeTimeoutMs }, services);
  if (mx && mxPort !== null) {
    const mxHost = env[MX_ENV.host]?.trim() || '0.0.0.0';
    logInfo('mx listening', { host: mxHost, port: await mx.listen(mxPort, mxHost) });
  }

  // Sessions per task, the service's scaling metric (docs/deploy.md, "Throughput ceilings").
  const stopReporting = reportSessions(() => relay.connections() + (mx?.connections() ?? 0));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    stopReporting();
    logInfo('smtp relay stopping', { signal, connections: relay.connections(), mx_connections: mx?.connections() ?? 0 });
    await Promise.all([relay.close(), mx?.close()]);
    logInfo('smtp relay stopped', { signal });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  logError('smtp relay failed to start', error);
  // Said even with LOG_LEVEL=silent: a task that exits at start must leave its reason in its output
  // (ECS keeps a stopped task's last log lines; the local cloud fails its start with them).
  if (process.env.LOG_LEVEL === 'silent')
    console.error(`smtp relay failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
