/**
 * An SMTP listener of the local cloud (the relay, the MX) on its port: a default port that is taken
 * (another stack, a dev server) gives way to a free one, a port asked for explicitly must be had.
 */
import type { SmtpServerHandle } from '../../shared/smtp/server-handle';

export interface LocalListener {
  host: string;
  port: number;
  /** `host:port` */
  address: string;
  listening(): boolean;
  connections(): number;
  stop(): Promise<void>;
}

export async function listenLocally(
  handle: SmtpServerHandle,
  options: { host: string; port: number; explicitPort: boolean; log: (message: string) => void },
  what: { name: string; portVariable: string },
): Promise<LocalListener> {
  let port: number;
  try {
    port = await handle.listen(options.port, options.host);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || options.port === 0 || options.explicitPort) throw error;
    options.log(`${what.name}: port ${options.port} is in use, using a free port instead (set ${what.portVariable} to choose one)`);
    port = await handle.listen(0, options.host);
  }
  return {
    host: options.host,
    port,
    address: `${options.host}:${port}`,
    listening: () => handle.listening(),
    connections: () => handle.connections(),
    stop: () => handle.close(),
  };
}
