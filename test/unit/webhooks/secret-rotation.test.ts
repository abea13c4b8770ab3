/**
 * A rotation's overlap (shared/domain/webhooks/secret-rotation.ts): until when the previous secret signs (a day by
 * default, none for 0), and whether it still signs an attempt at a given moment: up to its expiry, not at or after it.
 * The delivery worker signs with it only then (shared/usecases/webhooks/deliver-webhook.ts); end to end:
 * test/integration/webhook-secret-rotation.test.ts.
 */
import {
  DEFAULT_SECRET_OVERLAP_SECONDS,
  previousSecretExpiry,
  previousSecretSigns,
  rotateWebhookSecretSchema,
} from '#shared/domain/webhooks/secret-rotation';

const NOW = new Date('2026-11-28T10:00:00.000Z');

describe("a rotation's overlap", () => {
  it('ends a day after the rotation by default, after the given seconds, and not at all for 0', () => {
    expect(DEFAULT_SECRET_OVERLAP_SECONDS).toBe(86_400);
    expect(previousSecretExpiry(NOW)).toBe('2026-11-29T10:00:00.000Z');
    expect(previousSecretExpiry(NOW, 3600)).toBe('2026-11-28T11:00:00.000Z');
    expect(previousSecretExpiry(NOW, 0)).toBeNull();
  });

  it('lets the previous secret sign until its expiry, not at it or after; never without one', () => {
    const endpoint = { previous_secret_expires_at: '2026-11-28T11:00:00.000Z' };
    expect(previousSecretSigns(endpoint, new Date('2026-11-28T10:59:59.999Z'))).toBe(true);
    expect(previousSecretSigns(endpoint, new Date('2026-11-28T11:00:00.000Z'))).toBe(false);
    expect(previousSecretSigns(endpoint, new Date('2026-11-29T00:00:00.000Z'))).toBe(false);
    expect(previousSecretSigns({ previous_secret_expires_at: null }, NOW)).toBe(false);
  });

  it('takes 0 to 7 days in whole seconds, or nothing', () => {
    expect(rotateWebhookSecretSchema.parse({})).toEqual({});
    expect(rotateWebhookSecretSchema.parse({ overlap_seconds: 604_800 })).toEqual({ overlap_seconds: 604_800 });
    for (const overlap_seconds of [604_801, -1, 1.5, '60'])
      expect(rotateWebhookSecretSchema.safeParse({ overlap_seconds }).success).toBe(false);
  });
});
