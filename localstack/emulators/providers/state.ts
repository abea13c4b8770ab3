/**
 * What the provider emulator keeps, all in memory (nothing is persisted: a restart starts from the demo
 * accounts): the seeded accounts, one per (provider, API key), so tests seeding different keys never
 * see each other's data. A Postmark account is also found by its account token. Each account keeps its
 * faults (set through the control API, applied by faults.ts), a count of the requests it served (for
 * rate-limit faults) and a log of them (method, path + query, status, region — never a key). The control
 * API (control/routes.ts) seeds, changes and reads them.
 */
import type { CredentialKind, EmulatedProvider, EmulatedRegion } from './types';

export interface Faults {
  /** Requests answered normally before the 429s start. */
  rate_limit_after_requests?: number;
  /** How many consecutive requests get 429 (default 1); then answers are normal again. */
  rate_limit_count?: number;
  /** The wait the 429s announce, in the provider's own way (default 60). */
  retry_after_seconds?: number;
  /** 503 on every request. */
  unavailable?: boolean;
  /** Path prefixes (below the provider mount, e.g. /v3/suppression/blocks) the key may not read. */
  forbidden_paths?: string[];
}

export interface AccountSeed {
  provider: EmulatedProvider;
  api_key: string;
  /** Postmark: the account token (domains). */
  account_api_key?: string;
  /** SendGrid and Mailgun: which host serves this account (default us). */
  region?: EmulatedRegion;
  data: unknown;
  faults?: Faults;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  region: EmulatedRegion;
}

const LOG_LIMIT = 10_000;

export class Account {
  served = 0;
  readonly log: RequestLogEntry[] = [];

  constructor(readonly seed: AccountSeed) {}

  get region(): EmulatedRegion {
    return this.seed.region ?? 'us';
  }

  get faults(): Faults {
    return this.seed.faults ?? {};
  }

  record(entry: RequestLogEntry): void {
    this.log.push(entry);
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }
}

export class AccountStore {
  private readonly byKey = new Map<string, Account>();
  private readonly byAccountToken = new Map<string, Account>();

  /** Seeds (or replaces) the account of `seed.api_key`, with a fresh request count and log. */
  put(seed: AccountSeed): void {
    this.delete(seed.provider, seed.api_key);
    const account = new Account(seed);
    this.byKey.set(mapKey(seed.provider, seed.api_key), account);
    if (seed.account_api_key) this.byAccountToken.set(mapKey(seed.provider, seed.account_api_key), account);
  }

  delete(provider: EmulatedProvider, apiKey: string): boolean {
    const account = this.byKey.get(mapKey(provider, apiKey));
    if (!account) return false;
    this.byKey.delete(mapKey(provider, apiKey));
    if (account.seed.account_api_key) this.byAccountToken.delete(mapKey(provider, account.seed.account_api_key));
    return true;
  }

  get(provider: EmulatedProvider, apiKey: string): Account | undefined {
    return this.byKey.get(mapKey(provider, apiKey));
  }

  /** The account a credential opens on this region's host; undefined when the key is unknown there. */
  find(provider: EmulatedProvider, kind: CredentialKind, key: string, region: EmulatedRegion): Account | undefined {
    const account = (kind === 'account' ? this.byAccountToken : this.byKey).get(mapKey(provider, key));
    return account && account.region === region ? account : undefined;
  }
}

function mapKey(provider: EmulatedProvider, key: string): string {
  return `${provider}\u0000${key}`;
}

/** What the HTTP front (server.ts) and the control API's operations work on. */
export interface ProviderState {
  accounts: AccountStore;
  log: (msg: string) => void;
}

/** A store holding `seeds` (index.ts hands it the demo accounts unless told not to). */
export function createProviderState(seeds: readonly AccountSeed[], log: (msg: string) => void): ProviderState {
  const accounts = new AccountStore();
  for (const seed of seeds) accounts.put(seed);
  return { accounts, log };
}
