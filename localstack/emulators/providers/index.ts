/**
 * The provider emulator: fake SendGrid, Postmark and Mailgun APIs for imports (POST /migrations) in the
 * local cloud and in tests (docs/imports.md, "Trying it locally"). Its start and stop and its options are
 * here; this is the module the local cloud and the tests import, with:
 * - the control API's client (client.ts: seed an account, set its faults, read its request log);
 * - the seed shapes, each provider's raw objects (./sendgrid/seed.ts, ./postmark/seed.ts, ./mailgun/seed.ts),
 *   their builders and the volume generator (synthetic.ts);
 * - the demo accounts' keys and webhook host (demo.ts), seeded at start so a local user can try an
 *   import at once.
 * The HTTP front and its mounts are server.ts. Each fake is a folder (./sendgrid/, ./postmark/, ./mailgun/):
 * provider.ts (its credential), routes.ts (its table), operations/ (one module per route), errors.ts (its
 * error shapes). The seeded accounts, their faults and what the control API changes are in state.ts (all
 * in memory); the control API is ./control/ (its table, operations and errors).
 */
import type { ProviderBaseUrls } from '#shared/adapters/providers/base-urls';
import { listenHttp } from '../http-server';
import { DEMO_ACCOUNTS } from './demo';
import { createProviderServer } from './server';
import { createProviderState } from './state';

export type { AccountSeed, Faults, RequestLogEntry } from './state';
export { deleteProviderAccount, providerRequestLog, seedProviderAccount, setProviderFaults } from './client';
export { DEMO_KEYS, DEMO_WEBHOOK_HOST } from './demo';
export * from './mailgun/seed';
export * from './postmark/seed';
export * from './sendgrid/seed';
export { syntheticAddress, syntheticSuppressions } from './synthetic';
export type { EmulatedProvider, EmulatedRegion } from './types';

export interface ProviderEmulatorOptions {
  port?: number; // default 0 = ephemeral
  host?: string; // default 127.0.0.1
  /** Seed the demo accounts (default true). */
  demo?: boolean;
  log?: (msg: string) => void;
}

export interface ProviderEmulator {
  /** Origin, e.g. http://127.0.0.1:45678 (the control API is under /_control). */
  url: string;
  /** Base URL per provider host, ready for PROVIDER_*_URL. */
  urls: ProviderBaseUrls;
  close(): Promise<void>;
}

export async function startProviderEmulator(options: ProviderEmulatorOptions = {}): Promise<ProviderEmulator> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => undefined);
  const state = createProviderState((options.demo ?? true) ? DEMO_ACCOUNTS : [], log);

  const server = createProviderServer(state);
  const url = await listenHttp(server, { port: options.port, host });
  log(`provider emulator: listening on ${url}`);

  let closing: Promise<void> | undefined;
  return {
    url,
    urls: {
      sendgrid: `${url}/sendgrid`,
      sendgridEu: `${url}/sendgrid-eu`,
      postmark: `${url}/postmark`,
      mailgun: `${url}/mailgun`,
      mailgunEu: `${url}/mailgun-eu`,
    },
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
