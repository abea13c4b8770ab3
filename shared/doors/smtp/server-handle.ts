/** Listening and closing an smtp-server, as the relay and the MX listener expose it. */
import type { SMTPServer } from 'smtp-server';
import { logWarn } from '../../lib/log';

export interface SmtpServerHandle {
  /** Listens; resolves the port (0 = a free one). */
  listen(port: number, host: string): Promise<number>;
  /** Stops accepting; open sessions finish their message (later commands get 421), then everything closes. */
  close(): Promise<void>;
  /** Open connections. */
  connections(): number;
  listening(): boolean;
}

/** The handle of `server`; its connection-level errors (a reset mid-transaction, a failed handshake) concern one client only and are logged as `<logPrefix>: connection error`. */
export function serverHandle(server: SMTPServer, logPrefix: string): SmtpServerHandle {
  server.on('error', (error: Error) =>
    logWarn(`${logPrefix}: connection error`, { error: error.message, code: (error as NodeJS.ErrnoException).code }),
  );
  let isListening = false;
  return {
    listen: (port, host) =>
      new Promise<number>((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        server.server.once('error', onError);
        server.listen(port, host, () => {
          server.server.off('error', onError);
          isListening = true;
          const address = server.server.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (!isListening) return resolve();
        isListening = false;
        server.close(() => resolve());
      }),
    connections: () => server.connections.size,
    listening: () => isListening,
  };
}
