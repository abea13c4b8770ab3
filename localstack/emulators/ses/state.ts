/**
 * What the SES emulator's operations work on, built once at start and handed to each operation:
 *
 * - the store (./store.ts): configuration sets with their event destinations, email identities, tenants
 *   and their resource associations, the suppression lists, and every accepted message with the events it
 *   owes; in memory, and with a data directory persisted (config-sets.json, identities.json, tenants.json,
 *   suppression.json, messages/<id>.eml and .json; the store's comment says when each is durable);
 * - the services that own a part of SES's behaviour over that store: identities' verification
 *   (./verification.ts), suppression lists and feedback forwarding (./suppression-list.ts,
 *   ./feedback-forwarding.ts, ./bounce-aftermath.ts);
 * - the account's quota and switches (./account-limits.ts): memory only, a restart starts a new 24 hours;
 * - the event publisher (./publisher.ts), which publishes what accepted messages owe to SNS;
 * - the settings of SendEmail's events (region, account, outcome delay and order).
 */
import { emulatorAccount } from '../emulator-options';
import { AccountLimits } from './account-limits';
import { BounceAftermath } from './bounce-aftermath';
import { FeedbackForwarding } from './feedback-forwarding';
import type { SesEmulatorOptions } from './options';
import { DEFAULT_PUBLISH_RETRY, EventPublisher } from './publisher';
import type { EventOrder } from './simulator';
import { SesStore } from './store';
import { SuppressionList } from './suppression-list';
import { IdentityVerifier } from './verification';

export interface SesState {
  readonly store: SesStore;
  readonly publisher: EventPublisher;
  readonly region: string;
  readonly accountId: string;
  /** Delay between the Send event and the outcome events. */
  readonly outcomeDelayMs: number;
  /** The order and spacing of outcome events (simulator.ts EventOrder, outbox.ts earlyLeadMs). */
  readonly events: { order: EventOrder; earlyLeadMs: number };
  /** SendEmail's identity checks: a verified sender, and in the sandbox verified recipients. */
  readonly verifier: IdentityVerifier;
  /** CreateEmailIdentity refuses names matching this (LimitExceededException): to test failure paths. */
  readonly refuseIdentities: RegExp | undefined;
  readonly account: AccountLimits;
  readonly suppression: SuppressionList;
  readonly feedback: FeedbackForwarding;
  readonly bounces: BounceAftermath;
  log(msg: string): void;
}

/** Opens the store (loading what an earlier run left in the data directory) and builds the services over it. */
export async function openSesState(opts: SesEmulatorOptions, log: (msg: string) => void): Promise<SesState> {
  const store = await SesStore.open(opts.dataDir, log);
  const publisher = new EventPublisher(
    opts.sns,
    log,
    (message, entry, topic, at) => store.markPublished(message, entry, topic, at),
    opts.publishRetry ?? DEFAULT_PUBLISH_RETRY,
  );
  const { region, accountId } = emulatorAccount(opts);
  const outcomeDelayMs = Math.max(0, opts.outcomeDelayMs ?? 20);
  // SES's suppression lists and feedback forwarding (suppression-list.ts, feedback-forwarding.ts).
  const suppression = new SuppressionList(store, {
    bounceRecipients: opts.bounceRecipients,
    complaintRecipients: opts.complaintRecipients,
  });
  const feedback = new FeedbackForwarding(store);
  const verifier = new IdentityVerifier(store, {
    dnsResolver: opts.dnsResolver,
    delay: opts.verificationDelay,
    sandbox: opts.sandbox,
    region,
    log,
  });
  return {
    store,
    publisher,
    region,
    accountId,
    outcomeDelayMs,
    events: { order: opts.eventOrder ?? 'outcome', earlyLeadMs: Math.max(0, opts.earlyLeadMs ?? 1000) },
    verifier,
    refuseIdentities: opts.refuseIdentities,
    account: new AccountLimits({ ...opts.sendQuota, sandbox: opts.sandbox }),
    suppression,
    feedback,
    bounces: new BounceAftermath(suppression, feedback, outcomeDelayMs),
    log,
  };
}
