/**
 * The SMTP AUTH rule (shared/doors/smtp/auth-throttle.ts) over an in-memory stand-in of the shared counters
 * with the repository's semantics (a conditional ADD below the limit); the counters themselves, shared by
 * two relays against the local DynamoDB, are tested in test/integration/smtp-auth-throttle.test.ts.
 */
import { AuthThrottle } from '#shared/doors/smtp/auth-throttle';
import { windowOf, type RateLimit } from '#shared/domain/rate-limits';

class MemoryFailures {
  readonly items = new Map<string, number>();
  writes = 0;
  async counts(subjects: string[], rule: RateLimit, nowMs: number) {
    return subjects.map((subject) => this.items.get(`${subject}@${windowOf(rule, nowMs).start}`) ?? 0);
  }
  async add(subject: string, rule: RateLimit, nowMs: number) {
    this.writes++;
    const key = `${subject}@${windowOf(rule, nowMs).start}`;
    const count = this.items.get(key) ?? 0;
    if (count >= rule.limit) return null;
    this.items.set(key, count + 1);
    return count + 1;
  }
}

describe('failed SMTP logins, per client address and per credential tried', () => {
  let now: number;
  let failures: MemoryFailures;
  let throttle: AuthThrottle;
  beforeEach(() => {
    now = 1_800_000_000_000; // a multiple of the 60 s window: windows start at multiples of it
    failures = new MemoryFailures();
    throttle = new AuthThrottle({ maxFailures: 3, windowMs: 60_000 }, failures, () => now);
  });

  it('tells failures below the limit, the one reaching it with a wait, then nothing until the window ends', async () => {
    const guess = (n: number) => throttle.attempt('10.0.0.1', 'mailservice', `svcsmtp_guess${n}`);
    expect(await throttle.afterFailure(guess(1))).toEqual({ counted: true, block: null });
    expect(await throttle.afterFailure(guess(2))).toEqual({ counted: true, block: null });
    now += 10_000;
    expect(await throttle.afterFailure(guess(3))).toEqual({ counted: true, block: { waitSeconds: 50, by: 'address' } });
    expect(await throttle.blockedFor(guess(4))).toEqual({ waitSeconds: 50, by: 'address' });
    expect(await throttle.afterFailure(guess(4))).toEqual({ counted: false, block: { waitSeconds: 50, by: 'address' } });
    // Another address is not blocked; the blocked one is again in the next window.
    expect(await throttle.blockedFor(throttle.attempt('10.0.0.2', 'mailservice', 'svcsmtp_guess9'))).toBeNull();
    now += 50_000;
    expect(await throttle.blockedFor(guess(5))).toBeNull();
  });

  it('bounds one password replayed from many addresses', async () => {
    const from = (address: string) => throttle.attempt(address, 'mailservice', 'svcsmtp_revoked');
    for (const address of ['10.0.0.1', '10.0.0.2'])
      expect(await throttle.afterFailure(from(address))).toEqual({ counted: true, block: null });
    expect(await throttle.afterFailure(from('10.0.0.3'))).toEqual({ counted: true, block: { waitSeconds: 60, by: 'credential' } });
    expect(await throttle.blockedFor(from('10.0.0.4'))).toEqual({ waitSeconds: 60, by: 'credential' });
    expect(await throttle.blockedFor(throttle.attempt('10.0.0.4', 'mailservice', 'svcsmtp_other'))).toBeNull();
  });

  it('a success writes nothing and clears nothing, and is not told while the address is at the limit', async () => {
    const right = throttle.attempt('10.0.0.1', 'mailservice', 'svcsmtp_right');
    for (let n = 0; n < 10; n++) expect(await throttle.afterSuccess(right)).toBeNull();
    expect(failures.writes).toBe(0);
    for (let n = 0; n < 3; n++) await throttle.afterFailure(throttle.attempt('10.0.0.1', 'mailservice', `svcsmtp_wrong${n}`));
    expect(await throttle.afterSuccess(right)).toEqual({ waitSeconds: 60, by: 'address' });
  });

  it('keeps the password only as a hash, and counts an IPv4-mapped address as the IPv4 one', () => {
    const attempt = throttle.attempt('::ffff:10.0.0.1', 'mailservice', 'svcsmtp_secret');
    expect(attempt.address).toBe('ip:10.0.0.1');
    expect(attempt.credential).toMatch(/^cred:[0-9a-f]{64}$/);
    expect(JSON.stringify(attempt)).not.toContain('secret');
    expect(throttle.attempt('2001:db8::1', 'mailservice', 'x').address).toBe('ip:2001:db8::1');
  });
});
