/**
 * The account settings' use cases (shared/usecases/account/settings.ts): the answer's retention and bounds,
 * and a change refused with a 400 naming the field, or stored merged with what the account chose before.
 */
import type { Account } from '#shared/domain/accounts/account';
import { ForbiddenError, ValidationError } from '#shared/domain/errors';
import type { AccountRepository } from '#shared/adapters/store/accounts';
import type { Principal } from '#shared/usecases/access/principal';
import { getAccountSettings, updateAccountSettings } from '#shared/usecases/account/settings';

const account = (overrides: Partial<Account> = {}): Account => ({
  id: 'acc_1',
  email: 'owner@example.com',
  plan: 'pro',
  payment_method: true,
  tenants_enabled: false,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
  ...overrides,
});

const principal = (acc: Account, tenant: string | null = null) =>
  ({ account: acc, credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant } }) as unknown as Principal;

/** The repository's update, recorded (the use case's only write). */
function accounts() {
  const updates: { id: string; changes: Partial<Account> }[] = [];
  const repo = {
    update: async (id: string, changes: Partial<Account>, now: string) => {
      updates.push({ id, changes });
      return account({ ...changes, updated_at: now });
    },
  } as unknown as AccountRepository;
  return { repo, updates };
}

const clock = { now: () => new Date('2026-11-25T12:00:00.000Z') };

describe('GET /account', () => {
  it("answers the plan's defaults and bounds when the account chose nothing", () => {
    const settings = getAccountSettings(principal(account()));
    expect(settings.retention).toEqual({ emails_days: 90, received_emails_days: 90, webhook_deliveries_days: 90, imports_days: 90 });
    expect(settings.retention_bounds).toEqual({ min_days: 1, max_days: 90, allowed_days: [1, 7, 14, 30, 60, 90], default_days: 90 });
  });

  it('refuses a key limited to a tenant', () => {
    expect(() => getAccountSettings(principal(account(), 'ten_1'))).toThrow(ForbiddenError);
  });
});

describe('PATCH /account', () => {
  it('stores the change merged with the earlier choice', async () => {
    const { repo, updates } = accounts();
    const settings = await updateAccountSettings({ accounts: repo, clock }, principal(account({ retention: { imports_days: 7 } })), {
      retention: { emails_days: 1 },
    });
    expect(updates).toEqual([{ id: 'acc_1', changes: { retention: { imports_days: 7, emails_days: 1 } } }]);
    expect(settings.retention.emails_days).toBe(1);
    expect(settings.retention.imports_days).toBe(7);
    expect(settings.updated_at).toBe('2026-11-25T12:00:00.000Z');
  });

  it('refuses a value above the plan with a 400 naming the field, and writes nothing', async () => {
    const { repo, updates } = accounts();
    const change = updateAccountSettings({ accounts: repo, clock }, principal(account({ plan: 'free' })), {
      retention: { received_emails_days: 90 },
    });
    await expect(change).rejects.toThrow(ValidationError);
    await expect(change).rejects.toMatchObject({ status: 400, details: { fields: [{ field: 'retention.received_emails_days' }] } });
    expect(updates).toEqual([]);
  });

  it('refuses a value that is not a class', async () => {
    const { repo } = accounts();
    await expect(
      updateAccountSettings({ accounts: repo, clock }, principal(account({ plan: 'scale' })), { retention: { emails_days: 100 } }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
