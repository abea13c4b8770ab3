/**
 * Local SES emulator (SESv2 REST-JSON API) that publishes configuration-set events to SNS the
 * way SES's mailbox simulator does. See docs/local-cloud/ses.md.
 *
 *   const ses = await startSesEmulator({ sns: { endpoint, region, credentials } });
 *   new SESv2Client({ endpoint: ses.url, ... })
 */
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { listenHttp } from '../http-server';
import type { MessageQuery } from './message-query';
import { owedCount } from './outbox';
import type { PublishAuthorizer } from './publisher';
import { createSesServer } from './server';
import type { SesEmulatorOptions } from './options';
import { openSesState } from './state';
import type { LocalSesIdentity, LocalSesMessage, LocalSesMessageSummary, LocalSesTenant } from './types';
import * as viewer from './viewer';

export type { SesEmulatorOptions } from './options';
export type { LocalSesIdentity, LocalSesMessage, LocalSesMessageSummary, LocalSesTenant } from './types';
export { MessageQueryError, parseMessageQuery, type MessageQuery } from './message-query';

export interface SesEmulator {
  url: string;
  port: number;
  /** Decides whether SES may publish to a topic (its topic policy); set by the local cloud once it has deployed the template. */
  authorizePublish(authorizer: PublishAuthorizer): void;
  /** Every message, newest first, with its bytes. */
  listMessages(): LocalSesMessage[];
  /** The messages matching `query` (./message-query.ts), newest first; bytes only when `query.raw`. */
  findMessages(query: MessageQuery): (LocalSesMessage | LocalSesMessageSummary)[];
  /** Email identities (domains and addresses), sorted by name, JSON-ready; never a private key. */
  listIdentities(): LocalSesIdentity[];
  /** Verifies an email-address identity, as following SES's verification link does; false when there is none. */
  confirmIdentity(address: string): boolean;
  /** SES tenants with their associated resources, sorted by name, JSON-ready. */
  listTenants(): LocalSesTenant[];
  mailboxHtml(): string;
  /** Events accepted messages still owe (not yet published to every topic). */
  owedEvents(): number;
  /** Close the server, wait for pending publishes (bounded), flush to disk. */
  stop(): Promise<void>;
}

/** How long stop() waits for event pipelines still running. */
const STOP_PUBLISH_TIMEOUT_MS = 5000;
/** How long stop() lets in-flight requests finish before closing their connections. */
const STOP_REQUEST_GRACE_MS = 1000;

export async function startSesEmulator(opts: SesEmulatorOptions): Promise<SesEmulator> {
  const log = opts.log ?? ((msg: string) => process.stderr.write(`[ses-emulator] ${msg}\n`));
  const host = opts.host ?? '127.0.0.1';
  if (opts.dataDir !== undefined && !path.isAbsolute(opts.dataDir)) {
    throw new Error(`SES emulator dataDir must be an absolute path, got '${opts.dataDir}'`);
  }

  const state = await openSesState(opts, log);
  const { store, publisher, verifier } = state;
  const server = createSesServer(state);

  const url = await listenHttp(server, { port: opts.port, host });
  server.on('error', (err) => log(`server error: ${err.message}`));
  const port = (server.address() as AddressInfo).port;
  // Events an earlier run owed but had not published when it stopped or was killed.
  publisher.resume(store.messagesOwingEvents());
  const owedEvents = (): number => store.messagesOwingEvents().reduce((n, m) => n + owedCount(m.outbox), 0);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), STOP_REQUEST_GRACE_MS);
      await closed;
      clearTimeout(grace);
      await publisher.drain(STOP_PUBLISH_TIMEOUT_MS);
      publisher.close();
      await store.flush();
    })();
    return stopping;
  };

  const confirmIdentity = (address: string): boolean => verifier.confirm(address) !== undefined;
  const authorizePublish = (authorizer: PublishAuthorizer) => {
    publisher.authorizePublish = authorizer;
  };
  return {
    url,
    port,
    authorizePublish,
    confirmIdentity,
    listMessages: () => viewer.listMessages(store),
    findMessages: (query: MessageQuery) => viewer.findMessages(store, query),
    listIdentities: () => viewer.listIdentities(store),
    listTenants: () => viewer.listTenants(store),
    mailboxHtml: () => viewer.mailboxHtml(store),
    owedEvents,
    stop,
  };
}
