/**
 * Retention's pure rules (shared/domain/accounts/retention.ts): the defaults and bounds per plan, the
 * effective retention of an account, the ttl of a record, expiry, and the object class of a key.
 */
import {
  defaultRetention,
  effectiveRetention,
  isExpired,
  objectRetentionDays,
  PLAN_RETENTION,
  RETENTION_CLASSES_DAYS,
  retentionKeyPrefix,
  retentionProblem,
  retentionTtl,
} from '#shared/domain/accounts/retention';

const DAY = 24 * 60 * 60;

describe('defaults per plan', () => {
  it('keeps 30 days on free, 90 on pro, scale and dedicated, for every kind', () => {
    expect(defaultRetention('free')).toEqual({ emails_days: 30, received_emails_days: 30, webhook_deliveries_days: 30, imports_days: 30 });
    expect(defaultRetention('pro').emails_days).toBe(90);
    expect(defaultRetention('scale').received_emails_days).toBe(90);
    expect(defaultRetention('dedicated').imports_days).toBe(90);
  });

  it('allows up to 730 days on scale and dedicated only', () => {
    expect(PLAN_RETENTION.free.maxDays).toBe(30);
    expect(PLAN_RETENTION.pro.maxDays).toBe(90);
    expect(PLAN_RETENTION.scale.maxDays).toBe(730);
    expect(PLAN_RETENTION.dedicated.maxDays).toBe(730);
  });

  it('has every default and maximum among the classes', () => {
    for (const plan of Object.values(PLAN_RETENTION)) {
      expect(RETENTION_CLASSES_DAYS).toContain(plan.defaultDays);
      expect(RETENTION_CLASSES_DAYS).toContain(plan.maxDays);
    }
  });
});

describe('bounds', () => {
  it('accepts a class within the plan', () => {
    expect(retentionProblem('free', 1)).toBeNull();
    expect(retentionProblem('free', 30)).toBeNull();
    expect(retentionProblem('scale', 730)).toBeNull();
  });

  it('refuses a value that is not a class, naming the classes', () => {
    expect(retentionProblem('scale', 45)).toMatch(/one of 1, 7, 14, 30, 60, 90, 180, 365, 730/);
    expect(retentionProblem('scale', 0)).not.toBeNull();
    expect(retentionProblem('scale', -7)).not.toBeNull();
    expect(retentionProblem('scale', 7.5)).not.toBeNull();
  });

  it("refuses a class above the plan's maximum, naming it", () => {
    expect(retentionProblem('free', 60)).toBe('must be at most 30 days on the free plan');
    expect(retentionProblem('pro', 180)).toBe('must be at most 90 days on the pro plan');
    expect(retentionProblem('dedicated', 1000)).not.toBeNull();
  });
});

describe('effective retention', () => {
  it("takes the account's choice and the plan's default for the rest", () => {
    expect(effectiveRetention('pro', { emails_days: 7 })).toEqual({
      emails_days: 7,
      received_emails_days: 90,
      webhook_deliveries_days: 90,
      imports_days: 90,
    });
  });

  it("caps a stored value at a downgraded plan's maximum", () => {
    expect(effectiveRetention('free', { emails_days: 365, imports_days: 7 })).toEqual({
      emails_days: 30,
      received_emails_days: 30,
      webhook_deliveries_days: 30,
      imports_days: 7,
    });
  });
});

describe('the ttl of a record', () => {
  it('is the start in epoch seconds plus the days', () => {
    expect(retentionTtl(1, '2026-11-25T10:00:00.000Z')).toBe(Date.parse('2026-11-26T10:00:00.000Z') / 1000);
    expect(retentionTtl(30, new Date('2026-01-01T00:00:00.500Z'))).toBe(Date.parse('2026-01-01T00:00:00Z') / 1000 + 30 * DAY);
  });

  it('has expired once now reaches it; an item without a numeric ttl never expires', () => {
    const ttl = retentionTtl(1, '2026-11-25T10:00:00.000Z');
    expect(isExpired({ ttl }, new Date('2026-11-26T09:59:59.000Z'))).toBe(false);
    expect(isExpired({ ttl }, new Date('2026-11-26T10:00:00.000Z'))).toBe(true);
    expect(isExpired({}, Date.parse('2100-01-01'))).toBe(false);
    expect(isExpired({ ttl: '1' }, Date.parse('2100-01-01'))).toBe(false);
    expect(isExpired(null, Date.now())).toBe(false);
  });
});

describe('the class of an object', () => {
  const now = new Date('2026-11-25T10:00:00.000Z');

  it('is the retention itself for an object written when its window starts', () => {
    expect(objectRetentionDays(30, now, now)).toBe(30);
    expect(retentionKeyPrefix(objectRetentionDays(1, now, now))).toBe('retention/1d/');
  });

  it("covers a scheduled email's wait: the smallest class at least the wait plus the retention", () => {
    expect(objectRetentionDays(1, new Date('2026-11-28T10:00:00.000Z'), now)).toBe(7);
    expect(objectRetentionDays(30, new Date('2026-11-26T09:00:00.000Z'), now)).toBe(60);
    expect(objectRetentionDays(730, new Date('2026-12-25T10:00:00.000Z'), now)).toBe(730);
  });
});
