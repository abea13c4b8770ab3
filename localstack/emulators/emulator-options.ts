/**
 * What every AWS emulator of the local cloud is started with (each adds its own), and the account and Region it
 * answers for when not told: AWS's `us-east-1` and the local cloud's account (../cloud/constants.ts).
 */
export interface EmulatorOptions {
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Absolute path; undefined = memory only. */
  dataDir?: string;
  /** Default 'us-east-1'. */
  region?: string;
  /** Default '000000000000'. */
  accountId?: string;
  /** Default silent. */
  log?: (msg: string) => void;
}

/** The emulator's Region and account: the options', else the defaults. */
export function emulatorAccount(options: Pick<EmulatorOptions, 'region' | 'accountId'>): { region: string; accountId: string } {
  return { region: options.region ?? 'us-east-1', accountId: options.accountId ?? '000000000000' };
}
