/**
 * The SMTP relay inside the local cloud: the product's relay (shared/smtp/relay-server.ts) on loopback,
 * with the same services the functions use (built by the caller from the functions' environment, so it sends through
 * the local DynamoDB, S3 and SES exactly as the Fargate task would in AWS).
 *
 * STARTTLS certificate: the files named by SMTP_TLS_KEY_FILE/SMTP_TLS_CERT_FILE (or the PEM in
 * SMTP_TLS_KEY/SMTP_TLS_CERT) when set; otherwise a local CA and a certificate for localhost/127.0.0.1
 * made on first start and kept in DATA_DIR/smtp-relay (ca.pem is what a client trusts).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Services } from '../../shared/services';
import { relaySettingsFromEnv, SMTP_ENV, tlsFromEnv } from '../../shared/smtp/relay-config';
import { createRelayServer } from '../../shared/smtp/relay-server';
import { listenLocally, type LocalListener } from './local-listener';
import { writeLocalCa } from './local-tls';

export interface LocalSmtpRelay extends LocalListener {
  /** The CA that signed the relay's certificate (null when the certificate was given). */
  caFile: string | null;
}

/** The relay's certificate (also the MX listener's): given in the environment, else the local CA's. */
export async function certificate(dir: string): Promise<{ key: string; cert: string; caFile: string | null }> {
  const given = tlsFromEnv(process.env);
  if (given) return { ...given, caFile: null };
  mkdirSync(dir, { recursive: true });
  const files = { caFile: join(dir, 'ca.pem'), keyFile: join(dir, 'server-key.pem'), certFile: join(dir, 'server-cert.pem') };
  const { caFile, keyFile, certFile } = [files.caFile, files.keyFile, files.certFile].every(existsSync)
    ? files
    : await writeLocalCa(dir, { commonName: 'mailservice local SMTP relay CA', validDays: 3650 });
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), caFile };
}

/**
 * Starts the relay on `port` (0: a free one). A default port that is taken (another stack, a dev
 * server) gives way to a free one; a port asked for explicitly (`explicitPort`) must be had.
 */
export async function startLocalSmtpRelay(options: { dir: string; host: string; port: number; explicitPort: boolean; log: (message: string) => void; services: Services }): Promise<LocalSmtpRelay> {
  const { key, cert, caFile } = await certificate(options.dir);
  const settings = relaySettingsFromEnv(process.env);
  const relay = createRelayServer(
    {
      tls: { key, cert },
      ...settings,
      hostname: 'localhost',
      // Stopping the local cloud does not wait long for idle clients (SMTP_CLOSE_TIMEOUT_S overrides).
      closeTimeoutMs: process.env[SMTP_ENV.closeTimeoutSeconds] ? settings.closeTimeoutMs : 2000,
    },
    options.services,
  );
  const listener = await listenLocally(relay, options, { name: 'SMTP relay', portVariable: SMTP_ENV.port });
  return { ...listener, caFile };
}
