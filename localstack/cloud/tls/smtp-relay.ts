/**
 * The SMTP relay's (and MX listener's) STARTTLS certificate on the local cloud: the files named by
 * SMTP_TLS_KEY_FILE/SMTP_TLS_CERT_FILE (or the PEM in SMTP_TLS_KEY/SMTP_TLS_CERT) given to `npm start`
 * when set; otherwise a local CA and a certificate for localhost/127.0.0.1 made on first start and kept
 * in DATA_DIR/smtp-relay (ca.pem is what a client trusts). The relay task gets it as the value of its
 * template's TLS secret (../relay-task/relay-task-secrets.ts); the relay itself runs as a process of its own
 * (../relay-task/relay-task.ts).
 */
import { readFileSync } from 'node:fs';
import { tlsFromEnv } from '#shared/doors/smtp/relay-config';
import { cachedLocalCa } from './local-tls-cache';

/** The relay's certificate (also the MX listener's): given in the environment, else the local CA's. */
export async function certificate(dir: string): Promise<{ key: string; cert: string; caFile: string | null }> {
  const given = tlsFromEnv(process.env);
  if (given) return { ...given, caFile: null };
  const { caFile, keyFile, certFile } = await cachedLocalCa(dir, { commonName: 'mailservice local SMTP relay CA', validDays: 3650 });
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), caFile };
}
