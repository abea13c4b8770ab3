/**
 * The local cloud's options, and what every start-up step (../cloud.ts) shares: the options, the log, the
 * host the servers listen on, the data folder (made at start), where a component keeps its data (nowhere
 * when in memory), and the stop sequence each step adds its stops to (./stop-sequence.ts).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EventOrder } from '../../emulators/ses/simulator';
import { StopSequence } from './stop-sequence';

export interface LocalCloudOptions {
  /** API port; 0 = ephemeral. */
  port: number;
  host?: string;
  dataDir: string;
  /** Keep everything in memory (tests): nothing read from or written to dataDir but stack.json. */
  inMemory: boolean;
  /**
   * LOCAL_DYNAMODB_ENDPOINT: a DynamoDB Local already running (in memory only), used instead of starting
   * one; the stack's tables are deleted from it when the stack stops. Stacks sharing one need different
   * stack names (stackName). The test harness starts one for the stacks of the test files' own.
   */
  dynamodbEndpoint?: string;
  /** LOCAL_STACK_NAME: the stack's name, the prefix of its resources' physical names (default Mailservice). */
  stackName?: string;
  ports?: Partial<
    Record<'dynamodb' | 'fauxqs' | 'ses' | 'scheduler' | 'dns' | 'webhookInbox' | 'smtp' | 'mx' | 'providers' | 'customDomains', number>
  >;
  /** The SMTP port was asked for explicitly (SMTP_PORT): taken is an error, not a reason to take a free one. */
  smtpPortExplicit?: boolean;
  mxPortExplicit?: boolean;
  /** DNS servers the functions use (`host:port`, comma-separated); default: the local DNS emulator. */
  dnsResolvers?: string;
  sandboxDomain?: string;
  /** Shortens every queue's visibility timeout (tests: redelivery and DLQ in seconds). */
  visibilityOverrideSeconds?: number;
  /** Extra environment for the functions (e.g. LOG_LEVEL). */
  env?: Record<string, string>;
  /**
   * LOCAL_OIDC=1: start the local OpenID provider and configure the dashboard's sign-in with it
   * (docs/local-cloud/oidc.md), unless OIDC_ISSUER names a provider of the developer's own.
   */
  oidc?: boolean;
  /** LOCAL_OIDC_PORT: the local OpenID provider's port (default: a free one). */
  oidcPort?: number;
  /** The SES emulator refuses to create identities whose name matches (tests of the failure path). */
  sesRefuseIdentities?: RegExp;
  /** SES identities (matching `names`, or all) stay PENDING at least `ms` after verification starts (tests of the window). */
  sesVerificationDelay?: { ms: number; names?: RegExp };
  /** The local SES account is in the sandbox (LOCAL_SES_SANDBOX): quota 1/s and 200 a day unless sesSendQuota sets it. */
  sesSandbox?: boolean;
  /** The local SES account's send rate and 24-hour quota in recipients (default: none); docs/local-cloud/ses.md. */
  sesSendQuota?: { maxSendRate?: number; max24HourSend?: number };
  /** `ses` (LOCAL_SES_EVENT_ORDER): suppression-list events before the Delivery of other recipients, as SES publishes them. */
  sesEventOrder?: EventOrder;
  /** Recipients that hard-bounce / complain as real addresses (LOCAL_SES_BOUNCE_RECIPIENTS, LOCAL_SES_COMPLAINT_RECIPIENTS): SES's suppression list records them. */
  sesBounceRecipients?: RegExp;
  sesComplaintRecipients?: RegExp;
  log?: (message: string) => void;
}

export interface StartContext {
  options: LocalCloudOptions;
  log: (message: string) => void;
  host: string;
  /** Absolute; exists once the context does. */
  dataDir: string;
  /** `<dataDir>/<name>`; undefined when the cloud keeps everything in memory. */
  persistDir(name: string): string | undefined;
  stops: StopSequence;
}

/** The context of a starting cloud; makes its data folder. */
export function startContext(options: LocalCloudOptions): StartContext {
  const log = options.log ?? (() => undefined);
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  return {
    options,
    log,
    host: options.host ?? '127.0.0.1',
    dataDir,
    persistDir: (name) => (options.inMemory ? undefined : join(dataDir, name)),
    stops: new StopSequence(log),
  };
}
