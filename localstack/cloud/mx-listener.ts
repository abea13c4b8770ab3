/**
 * The inbound MX listener inside the local cloud: the product's listener (shared/inbound/mx-server.ts) on
 * loopback, with the functions' services, so mail sent to it (swaks, nodemailer, a raw socket) is stored
 * in the local S3 and processed by the inbound worker exactly as in AWS. STARTTLS uses the relay's
 * certificate (DATA_DIR/smtp-relay, ca.pem).
 */
import { loadConfig } from '../../shared/config';
import { createMxServer } from '../../shared/inbound/mx-server';
import { mxSettingsFromEnv } from '../../shared/inbound/mx-config';
import { buildServices } from '../../shared/services';
import { certificate } from './smtp-relay';

export interface LocalMxListener {
  host: string;
  port: number;
  address: string;
  listening(): boolean;
  connections(): number;
  stop(): Promise<void>;
}

/** Starts the listener on `port` (0: a free one); a taken default port gives way to a free one, an explicit one must be had. */
export async function startLocalMxListener(options: { certDir: string; host: string; port: number; explicitPort: boolean; log: (message: string) => void }): Promise<LocalMxListener> {
  const { key, cert } = await certificate(options.certDir);
  const services = buildServices(loadConfig(process.env));
  const mx = createMxServer({ tls: { key, cert }, ...mxSettingsFromEnv(process.env), closeTimeoutMs: 2000 }, services);
  let port: number;
  try {
    port = await mx.listen(options.port, options.host);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || options.port === 0 || options.explicitPort) throw error;
    options.log(`MX: port ${options.port} is in use, using a free port instead (set MX_PORT to choose one)`);
    port = await mx.listen(0, options.host);
  }
  return { host: options.host, port, address: `${options.host}:${port}`, listening: () => mx.listening(), connections: () => mx.connections(), stop: () => mx.close() };
}
