/**
 * Wrong SMTP passwords, counted per client address: after `maxFailures` failed AUTHs within `windowMs`
 * the address may not try again until its oldest failure leaves the window (the relay answers 421 4.7.0
 * and closes). A successful AUTH clears the address's count.
 *
 * In memory, per relay task: behind a load balancer of N tasks an address gets up to N x maxFailures
 * tries per window, and a restart forgets. That bounds online guessing of 256-bit passwords well enough;
 * a shared store (a DynamoDB rate-limit window, as the API's) is the way to make it exact.
 */
import { BoundedMap } from '../bounded-map';

export interface AuthThrottleSettings {
  maxFailures: number;
  windowMs: number;
}

export const DEFAULT_AUTH_THROTTLE: AuthThrottleSettings = { maxFailures: 5, windowMs: 5 * 60_000 };

/** Addresses remembered at once (the oldest are forgotten first). */
const MAX_ADDRESSES = 50_000;

export class AuthThrottle {
  private readonly failures = new BoundedMap<string, number[]>(MAX_ADDRESSES);

  constructor(
    private readonly settings: AuthThrottleSettings = DEFAULT_AUTH_THROTTLE,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(address: string): number[] {
    const since = this.now() - this.settings.windowMs;
    return (this.failures.get(address) ?? []).filter((at) => at > since);
  }

  /** Seconds until the address may try again; 0 when it may now. */
  blockedFor(address: string): number {
    const recent = this.recent(address);
    if (recent.length < this.settings.maxFailures) return 0;
    const oldest = recent[recent.length - this.settings.maxFailures]!;
    return Math.max(1, Math.ceil((oldest + this.settings.windowMs - this.now()) / 1000));
  }

  recordFailure(address: string): void {
    const recent = this.recent(address);
    recent.push(this.now());
    this.failures.set(address, recent.slice(-this.settings.maxFailures));
  }

  recordSuccess(address: string): void {
    this.failures.delete(address);
  }
}
