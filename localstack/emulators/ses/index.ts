/**
 * Local SES emulator (SESv2 REST-JSON API) that publishes configuration-set events to SNS the
 * way SES's mailbox simulator does. See docs/local-cloud/ses.md.
 *
 *   const ses = await startSesEmulator({ sns: { endpoint, region, credentials } });
 *   new SESv2Client({ endpoint: ses.url, ... })
 */
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { DnsServers } from '../dns-servers';
import { listenHttp } from '../http-server';
import type { MessageQuery } from './message-query';
import { owedCount } from './outbox';
import type { PublishAuthorizer, RetryOptions } from './publisher';
import { createSesServer } from './server';
import type { EventOrder } from './simulator';
import { openSesState } from './state';
import type { LocalSesIdentity, LocalSesMessage, LocalSesMessageSummary, LocalSesTenant } from './types';
import * as viewer from './viewer';

export type { LocalSesIdentity, LocalSesMessage, LocalSesMessageSummary, LocalSesTenant } from './types';
export { MessageQueryError, parseMessageQuery, type MessageQuery } from './message-query';

export interface SesEmulatorOptions {
  /** Default 0 = ephemeral. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Absolute path; undefined = memory only. */
  dataDir?: string;
  /** Default 'us-east-1'. */
  region?: string;
  /** Default '000000000000'. */
  accountId?: string;
  sns: { endpoint: string; region: string; credentials: { accessKeyId: string; secretAccessKey: string } };
  /** Delay between the Send event and the outcome events; default 20. */
  outcomeDelayMs?: number;
  /**
   * `ses`: events SES publishes without trying to deliver (suppression-list bounces and complaints) go
   * out right after Send, before the Delivery of the other recipients, as on AWS (LOCAL_SES_EVENT_ORDER=ses).
   * Default `outcome`: Delivery first. A recipient labelled `+early` asks it for itself (simulator.ts).
   */
  eventOrder?: EventOrder;
  /** When a message has early events, its other outcome events follow them at least this late; default 1000. */
  earlyLeadMs?: number;
  /** Backoff of failed SNS publishes (retried until they succeed); default 250 ms doubling up to 5 s. */
  publishRetry?: RetryOptions;
  /**
   * The account is in the SES sandbox (LOCAL_SES_SANDBOX=1): its quota defaults to 1/s and 200 a day
   * (account-limits.ts), and GetAccount answers ProductionAccessEnabled false; SendEmail's recipients
   * must be verified identities (mailbox simulator addresses exempt; verification.ts).
   */
  sandbox?: boolean;
  /**
   * DNS servers identities are verified against (`host:port`: the DNS emulator's address, or by name,
   * ../dns-servers.ts; verification.ts); default: the system's.
   */
  dnsResolver?: DnsServers;
  /**
   * Identities (those matching `names`, or all) stay PENDING at least `ms` after verification starts, even
   * with their records in DNS: SES checks periodically. Default none.
   */
  verificationDelay?: { ms: number; names?: RegExp };
  /** Send rate and 24-hour quota in recipients; default: none (the local cloud gives LOCAL_SES_MAX_SEND_RATE, LOCAL_SES_MAX_24H_SEND or LOCAL_CLOUD_QUOTA). */
  sendQuota?: { maxSendRate?: number; max24HourSend?: number };
  /** CreateEmailIdentity refuses identity names matching this (LimitExceededException); for failure tests. */
  refuseIdentities?: RegExp;
  /**
   * Recipients (not simulator addresses) that hard-bounce (Permanent/General) or complain, as real
   * addresses would: SES's suppression lists record them (LOCAL_SES_BOUNCE_RECIPIENTS,
   * LOCAL_SES_COMPLAINT_RECIPIENTS; suppression-list.ts). Default none.
   */
  bounceRecipients?: RegExp;
  complaintRecipients?: RegExp;
  log?: (msg: string) => void;
}

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
