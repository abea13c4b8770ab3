/**
 * The inbound MX listener inside the local cloud: the product's listener (shared/inbound/mx-server.ts) on
 * loopback, with the functions' services, so mail sent to it (swaks, nodemailer, a raw socket) is stored
 * in the local S3 and processed by the inbound worker exactly as in AWS. STARTTLS uses the relay's
 * certificate (DATA_DIR/smtp-relay, ca.pem).
 */
import { createMxServer } from '../../shared/inbound/mx-server';
import { MX_ENV, mxSettingsFromEnv } from '../../shared/inbound/mx-config';
import type { Services } from '../../shared/services';
import { listenLocally, type LocalListener } from './local-listener';
import { certificate } from './smtp-relay';

/** Starts the listener on `port` (0: a free one; a taken default port gives way to a free one). */
export async function startLocalMxListener(options: { certDir: string; host: string; port: number; explicitPort: boolean; log: (message: string) => void; services: Services }): Promise<LocalListener> {
  const { key, cert } = await certificate(options.certDir);
  const mx = createMxServer({ tls: { key, cert }, ...mxSettingsFromEnv(process.env), closeTimeoutMs: 2000 }, options.services);
  return listenLocally(mx, options, { name: 'MX', portVariable: MX_ENV.port });
}
