/**
 * Failed SMTP logins, counted in the table (shared/adapters/store/smtp-auth-failures.ts) so that every relay task
 * shares them: N tasks behind the load balancer allow what one does, and a restart forgets nothing.
 *
 * The rule, per fixed window of `windowMs` (aligned to the epoch, as the API's rate limits):
 *
 *   - per client address: at most `maxFailures` failed logins;
 *   - per credential tried: at most `maxFailures` failures of the same username and password (the
 *     username is fixed, so this is the password, kept as a SHA-256 only): one known password replayed
 *     from many addresses (a leaked, revoked credential; a misconfigured fleet) is bounded as one.
 *
 * An attempt's result is only ever told in the order DynamoDB counts, so parallel sessions on any number
 * of tasks cannot learn more than the limit allows:
 *
 *   - a wrong password is answered 535 only when its failure was counted (a conditional ADD, below the
 *     limit) for the address and for the credential; otherwise 421 4.7.0, without its result;
 *   - a right password is answered 235 only when the address's count, read after the password was
 *     checked, is below the limit; otherwise 421 4.7.0 as well. Successes write nothing (a busy client
 *     logging in on many connections at once is never throttled) and clear nothing (a valid credential
 *     of one's own cannot buy more guesses at others).
 *
 * Once blocked, an address (or credential) may try again when the window ends. A failure that is counted
 * at the limit is answered 421 with its 535 text (the client learns it was wrong, and that it must wait).
 */
import { createHash } from 'node:crypto';
import { secondsUntilReset, type RateLimit } from '../../domain/rate-limits';
import type { SmtpAuthFailureRepository } from '../../adapters/store/smtp-auth-failures';

export interface AuthThrottleSettings {
  maxFailures: number;
  windowMs: number;
}

export const DEFAULT_AUTH_THROTTLE: AuthThrottleSettings = { maxFailures: 5, windowMs: 5 * 60_000 };

/** The subjects one AUTH is counted against. */
export interface AuthAttempt {
  /** `ip:<client address>` (an IPv4-mapped IPv6 address as IPv4). */
  address: string;
  /** `cred:<sha256 of username NUL password>`. */
  credential: string;
}

/** Which limit an attempt is held by: the client address's, or the credential's (the password tried). */
export type Limited = 'address' | 'credential';

/** Held: seconds until the window ends, and by which limit. */
export interface AuthBlock {
  waitSeconds: number;
  by: Limited;
}

export type AuthFailureOutcome =
  /** Counted below the limit: answer 535. */
  | { counted: true; block: null }
  /** Counted, and now at a limit: answer 421 with the 535 text. */
  | { counted: true; block: AuthBlock }
  /** Not counted (already at a limit): answer 421, without the result. */
  | { counted: false; block: AuthBlock };

export class AuthThrottle {
  private readonly rule: RateLimit;

  constructor(
    settings: AuthThrottleSettings,
    private readonly failures: Pick<SmtpAuthFailureRepository, 'counts' | 'add'>,
    private readonly now: () => number = Date.now,
  ) {
    this.rule = { limit: settings.maxFailures, windowSeconds: Math.max(1, Math.round(settings.windowMs / 1000)) };
  }

  attempt(remoteAddress: string, username: string, password: string): AuthAttempt {
    return {
      address: `ip:${remoteAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '')}`,
      credential: `cred:${createHash('sha256').update(username).update('\u0000').update(password).digest('hex')}`,
    };
  }

  /** Before the password is checked: held when the address or the credential is at its limit, else null. */
  async blockedFor(attempt: AuthAttempt): Promise<AuthBlock | null> {
    const now = this.now();
    const [address, credential] = await this.failures.counts([attempt.address, attempt.credential], this.rule, now);
    return this.held(now, (address ?? 0) >= this.rule.limit, (credential ?? 0) >= this.rule.limit);
  }

  /** The password was right: null when it may be told (the address is below its limit now), else held. */
  async afterSuccess(attempt: AuthAttempt): Promise<AuthBlock | null> {
    const now = this.now();
    const [count] = await this.failures.counts([attempt.address], this.rule, now);
    return this.held(now, (count ?? 0) >= this.rule.limit, false);
  }

  /** The password was wrong: counted for the address and the credential, each only below its limit. */
  async afterFailure(attempt: AuthAttempt): Promise<AuthFailureOutcome> {
    const now = this.now();
    const [address, credential] = await Promise.all([
      this.failures.add(attempt.address, this.rule, now),
      this.failures.add(attempt.credential, this.rule, now),
    ]);
    // One of the two at its limit: not told (the other may have counted it: the attacker loses that try).
    if (address === null || credential === null) return { counted: false, block: this.held(now, address === null, credential === null)! };
    const block = this.held(now, address >= this.rule.limit, credential >= this.rule.limit);
    return block ? { counted: true, block } : { counted: true, block: null };
  }

  private held(now: number, byAddress: boolean, byCredential: boolean): AuthBlock | null {
    if (!byAddress && !byCredential) return null;
    return { waitSeconds: secondsUntilReset(this.rule, now), by: byAddress ? 'address' : 'credential' };
  }
}
