/**
 * The automation and account a run's steps read, kept HOT_LOOKUPS_CACHE_MS per process
 * (shared/usecases/automations/runs/step-lookups.ts): read once per ttl (a deleted automation too), every time
 * with a ttl of 0.
 */
import type { Account } from '#shared/domain/accounts/account';
import type { Automation } from '#shared/domain/automations/automation';
import { stepLookups } from '#shared/usecases/automations/runs/step-lookups';

function fakes() {
  const reads: string[] = [];
  const automation = { id: 'auto_1', account_id: 'acc_1', status: 'active' } as Automation;
  const account = { id: 'acc_1' } as Account;
  return {
    reads,
    deps: {
      automations: {
        get: async (_accountId: string, id: string) => {
          reads.push(`automation ${id}`);
          return id === 'auto_1' ? automation : null;
        },
      },
      accounts: {
        get: async (accountId: string) => {
          reads.push(`account ${accountId}`);
          return account;
        },
      },
    },
  };
}

describe("a run step's lookups", () => {
  it('reads the automation and the account once per ttl, a deleted automation too', async () => {
    const { reads, deps } = fakes();
    let now = 0;
    const lookups = stepLookups(deps, 1000, () => now);
    for (let i = 0; i < 4; i++) {
      expect((await lookups.automations.get('acc_1', 'auto_1'))?.status).toBe('active');
      expect(await lookups.automations.get('acc_1', 'auto_gone')).toBeNull();
      expect((await lookups.accounts.get('acc_1'))?.id).toBe('acc_1');
      now += 400;
    }
    // Read at 0, kept at 400 and 800, read again at 1200 (the ttl passed).
    expect(reads.sort()).toEqual(
      ['account acc_1', 'account acc_1', 'automation auto_1', 'automation auto_1', 'automation auto_gone', 'automation auto_gone'].sort(),
    );
  });

  it('reads every time with a ttl of 0', async () => {
    const { reads, deps } = fakes();
    const lookups = stepLookups(deps, 0);
    await lookups.automations.get('acc_1', 'auto_1');
    await lookups.automations.get('acc_1', 'auto_1');
    expect(reads).toEqual(['automation auto_1', 'automation auto_1']);
  });
});
