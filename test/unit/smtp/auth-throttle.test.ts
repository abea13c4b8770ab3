import { AuthThrottle } from '../../../shared/smtp/auth-throttle';

describe('failed SMTP logins per client address', () => {
  it('blocks an address after maxFailures within the window, until the oldest leaves it', () => {
    let now = 1_000_000;
    const throttle = new AuthThrottle({ maxFailures: 3, windowMs: 60_000 }, () => now);
    for (let i = 0; i < 2; i++) throttle.recordFailure('10.0.0.1');
    expect(throttle.blockedFor('10.0.0.1')).toBe(0);
    now += 10_000;
    throttle.recordFailure('10.0.0.1');
    expect(throttle.blockedFor('10.0.0.1')).toBe(50);
    expect(throttle.blockedFor('10.0.0.2')).toBe(0);
    now += 50_001;
    expect(throttle.blockedFor('10.0.0.1')).toBe(0);
  });

  it('forgets an address that logs in successfully', () => {
    const throttle = new AuthThrottle({ maxFailures: 2, windowMs: 60_000 });
    throttle.recordFailure('a');
    throttle.recordSuccess('a');
    throttle.recordFailure('a');
    expect(throttle.blockedFor('a')).toBe(0);
  });
});
