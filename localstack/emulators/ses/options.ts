/** What the SES emulator is started with (./index.ts, startSesEmulator; ./state.ts opens its state from them). */
import type { DnsServers } from '../dns-servers';
import type { EmulatorOptions } from '../emulator-options';
import type { RetryOptions } from './publisher';
import type { EventOrder } from './simulator';

export interface SesEmulatorOptions extends EmulatorOptions {
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
}
