/**
 * The MX listener's settings from the environment (the Fargate task's, or the local cloud's). The
 * STARTTLS certificate is the relay's (shared/doors/smtp/relay-config.ts `tlsFromEnv`).
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | `MX_PORT` | unset: no MX listener in the relay's task; 2525 on the local cloud | listening port |
 * | `MX_HOST` | 0.0.0.0 | bind address |
 * | `MX_HOSTNAME` | INBOUND_MX_HOST | the name in the greeting and the Received field |
 * | `MX_MAX_CLIENTS` | 500 | concurrent connections |
 * | `MX_MAX_MESSAGE_MB` | 40 | largest message (SIZE) |
 * | `MX_MAX_BUFFERED_MB` | 1024 | message bytes held in memory at once, all sessions (beyond: 451 4.3.1) |
 */
import { DEFAULT_SETTINGS } from '../../config/settings';
import { portFromEnvVar, positiveIntegerFromEnv } from '../smtp/listener-options';
import type { MxOptions } from './mx-server';

export const MX_ENV = {
  port: 'MX_PORT',
  host: 'MX_HOST',
  hostname: 'MX_HOSTNAME',
  maxClients: 'MX_MAX_CLIENTS',
  maxMessageMegabytes: 'MX_MAX_MESSAGE_MB',
  maxBufferedMegabytes: 'MX_MAX_BUFFERED_MB',
} as const;

/** MX_PORT as a port number; null when unset (the listener is not started). */
export function mxPortFromEnv(env: NodeJS.ProcessEnv): number | null {
  return portFromEnvVar(env, MX_ENV.port);
}

/** Every setting but TLS (the relay's certificate) and the address. */
export function mxSettingsFromEnv(env: NodeJS.ProcessEnv): Omit<MxOptions, 'tls'> {
  return {
    hostname: env[MX_ENV.hostname]?.trim() || env.INBOUND_MX_HOST?.trim() || DEFAULT_SETTINGS.INBOUND_MX_HOST,
    maxClients: positiveIntegerFromEnv(env, MX_ENV.maxClients, 500, 100_000),
    maxMessageBytes: positiveIntegerFromEnv(env, MX_ENV.maxMessageMegabytes, 40, 1024) * 1024 * 1024,
    maxBufferedBytes: positiveIntegerFromEnv(env, MX_ENV.maxBufferedMegabytes, 1024, 1024 * 1024) * 1024 * 1024,
  };
}
