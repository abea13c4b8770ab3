/**
 * The relay's settings from the environment (the Fargate task's, or the local cloud's), read once at start.
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | `SMTP_PORT` | 587 | listening port |
 * | `SMTP_HOST` | 0.0.0.0 | bind address |
 * | `SMTP_HOSTNAME` | the machine's name | the name in the greeting |
 * | `SMTP_TLS_KEY_FILE`, `SMTP_TLS_CERT_FILE` | | PEM files for STARTTLS |
 * | `SMTP_TLS_KEY`, `SMTP_TLS_CERT` | | the PEM itself (Secrets Manager injection); the files win |
 * | `SMTP_MAX_CLIENTS` | 500 | concurrent connections |
 * | `SMTP_IDLE_TIMEOUT_S` | 60 | idle time before a connection is closed |
 * | `SMTP_CLOSE_TIMEOUT_S` | 25 | on SIGTERM, how long open sessions may finish |
 * | `SMTP_MAX_BUFFERED_MB` | 1024 | message bytes held in memory at once, all sessions (beyond: 451 4.3.1) |
 * | `SMTP_AUTH_MAX_FAILURES`, `SMTP_AUTH_WINDOW_S` | 5, 300 | failed logins per client address and per password tried per window, shared by every task (./auth-throttle.ts) |
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_AUTH_THROTTLE } from './auth-throttle';
import { portFromEnvVar, positiveIntegerFromEnv } from './listener-options';
import type { RelayOptions } from './relay-server';

export const SMTP_ENV = {
  port: 'SMTP_PORT',
  host: 'SMTP_HOST',
  hostname: 'SMTP_HOSTNAME',
  tlsKeyFile: 'SMTP_TLS_KEY_FILE',
  tlsCertFile: 'SMTP_TLS_CERT_FILE',
  tlsKey: 'SMTP_TLS_KEY',
  tlsCert: 'SMTP_TLS_CERT',
  maxClients: 'SMTP_MAX_CLIENTS',
  idleTimeoutSeconds: 'SMTP_IDLE_TIMEOUT_S',
  closeTimeoutSeconds: 'SMTP_CLOSE_TIMEOUT_S',
  maxBufferedMegabytes: 'SMTP_MAX_BUFFERED_MB',
  authMaxFailures: 'SMTP_AUTH_MAX_FAILURES',
  authWindowSeconds: 'SMTP_AUTH_WINDOW_S',
} as const;

/** The TLS key and certificate: files named by SMTP_TLS_*_FILE, else the PEM in SMTP_TLS_KEY/CERT; null when neither. */
export function tlsFromEnv(env: NodeJS.ProcessEnv): { key: string; cert: string } | null {
  const keyFile = env[SMTP_ENV.tlsKeyFile]?.trim();
  const certFile = env[SMTP_ENV.tlsCertFile]?.trim();
  if (keyFile || certFile) {
    if (!keyFile || !certFile) throw new Error(`Set both ${SMTP_ENV.tlsKeyFile} and ${SMTP_ENV.tlsCertFile}`);
    return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
  }
  const key = env[SMTP_ENV.tlsKey]?.trim();
  const cert = env[SMTP_ENV.tlsCert]?.trim();
  if (key || cert) {
    if (!key || !cert) throw new Error(`Set both ${SMTP_ENV.tlsKey} and ${SMTP_ENV.tlsCert}`);
    // Secrets injected through a single-line variable sometimes carry literal "\n".
    return { key: key.replace(/\\n/g, '\n'), cert: cert.replace(/\\n/g, '\n') };
  }
  return null;
}

/** Every setting but TLS and the address (the caller decides those). */
export function relaySettingsFromEnv(env: NodeJS.ProcessEnv): Omit<RelayOptions, 'tls'> {
  return {
    ...(env[SMTP_ENV.hostname]?.trim() ? { hostname: env[SMTP_ENV.hostname]!.trim() } : {}),
    maxClients: positiveIntegerFromEnv(env, SMTP_ENV.maxClients, 500, 100_000),
    idleTimeoutMs: positiveIntegerFromEnv(env, SMTP_ENV.idleTimeoutSeconds, 60, 3600) * 1000,
    closeTimeoutMs: positiveIntegerFromEnv(env, SMTP_ENV.closeTimeoutSeconds, 25, 3600) * 1000,
    maxBufferedBytes: positiveIntegerFromEnv(env, SMTP_ENV.maxBufferedMegabytes, 1024, 1024 * 1024) * 1024 * 1024,
    authThrottle: {
      maxFailures: positiveIntegerFromEnv(env, SMTP_ENV.authMaxFailures, DEFAULT_AUTH_THROTTLE.maxFailures, 10_000),
      windowMs: positiveIntegerFromEnv(env, SMTP_ENV.authWindowSeconds, DEFAULT_AUTH_THROTTLE.windowMs / 1000, 86_400) * 1000,
    },
  };
}

/** SMTP_PORT, or `fallback` when unset. */
export function portFromEnv(env: NodeJS.ProcessEnv, fallback: number): number {
  return portFromEnvVar(env, SMTP_ENV.port) ?? fallback;
}
