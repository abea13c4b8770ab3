/**
 * What the relay and the MX listener share: their listener settings, the smtp-server options derived
 * from them (STARTTLS, SIZE, extensions, limits), and reading those settings from the environment.
 */
import type { SecureContextOptions } from 'node:tls';
import type { SMTPServerOptions } from 'smtp-server';

export interface SmtpListenerOptions {
  /** TLS key and certificate (PEM) for STARTTLS. */
  tls: Pick<SecureContextOptions, 'key' | 'cert'>;
  /** The name in the greeting and EHLO answer. */
  hostname?: string;
  /** Concurrent connections; more are answered 421 and closed. Default 500. */
  maxClients?: number;
  /** Idle time before a connection is closed (421). Default 60 s. */
  idleTimeoutMs?: number;
  /** On close: how long open sessions may finish before they are told 421 and closed. Default 25 s. */
  closeTimeoutMs?: number;
  /** SIZE: larger messages are refused (552 5.3.4). Each listener has its own default. */
  maxMessageBytes?: number;
  /**
   * Bytes of messages held in memory at once, all sessions together (./collect-message.ts). A message
   * arriving beyond it is read to its end and answered 451 4.3.1 (try again), so many large messages at
   * once slow clients down instead of exhausting the task. Default 1 GiB.
   */
  maxBufferedBytes?: number;
}

export const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024 * 1024;

/** The smtp-server options both listeners set alike; each adds its banner, AUTH policy and handlers. */
export function baseServerOptions(options: SmtpListenerOptions, maxMessageBytes: number): SMTPServerOptions {
  return {
    secure: false,
    key: options.tls.key,
    cert: options.tls.cert,
    minVersion: 'TLSv1.2',
    name: options.hostname,
    size: maxMessageBytes,
    hidePIPELINING: false,
    hide8BITMIME: false,
    hideSMTPUTF8: false,
    hideENHANCEDSTATUSCODES: false,
    hideDSN: true,
    hideREQUIRETLS: true,
    maxClients: options.maxClients ?? 500,
    socketTimeout: options.idleTimeoutMs ?? 60_000,
    closeTimeout: options.closeTimeoutMs ?? 25_000,
    disableReverseLookup: true,
    logger: false,
  };
}

/** An integer setting from 1 to `max`; `fallback` when unset; a clear error naming the variable otherwise. */
export function positiveIntegerFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name} must be an integer from 1 to ${max}, got "${raw}"`);
  return value;
}

/** A port number (0-65535) from the variable `name`; null when unset. */
export function portFromEnvVar(env: NodeJS.ProcessEnv, name: string): number | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return null;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number (0-65535), got "${raw}"`);
  return port;
}
