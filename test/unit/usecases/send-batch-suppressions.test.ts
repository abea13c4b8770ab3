/**
 * A batch reads its items' recipients against the account's suppression list once (shared/usecases/send/send-batch.ts,
 * `clearedByOneRead`), and each item's own read skips the recipients found on neither list; a suppressed
 * recipient is still read by its item and refused as a single send refuses it.
 */
import { sendBatch } from '#shared/usecases/send/send-batch';
import { account, fakeSendDeps, tenant, storedTenant } from './send-fakes';

const principal = {
  account: account({ payment_method: true, tenants_enabled: true }),
  credential: { kind: 'api_key' as const, id: 'key_1', scopes: ['full'], tenant: null, allowed_domains: null },
};
const verified = new Map([['acme.test', { id: 'dom_1', account_id: 'acc_1', status: 'verified' as const }]]);

function batchWorld() {
  const acme = tenant();
  const { deps, world } = fakeSendDeps({
    domains: verified,
    accounts: new Map([['acc_1', principal.account]]),
    suppressed: new Set(['gone@example.com']),
    tenants: new Map([[acme.id, storedTenant(acme)]]),
  });
  const reads: string[][] = [];
  const withReader = {
    ...deps,
    idempotency: { get: deps.idempotency.get, put: async () => true },
    sendContext: {
      suppressedAmong: async (_accountId: string, addresses: readonly string[]) => {
        reads.push([...addresses]);
        return new Set(addresses.filter((address) => world.suppressed.has(address)));
      },
    },
  };
  return { deps: withReader, world, reads };
}

const item = (to: string, extra: Record<string, unknown> = {}) => ({ from: 'a@acme.test', to, subject: 's', text: 't', ...extra });

describe("a batch's suppression read", () => {
  it("reads every account-wide item's recipients once; each item's own read skips those found on no list", async () => {
    const { deps, world, reads } = batchWorld();
    const result = await sendBatch(deps, principal, [item('a@example.com'), item('b@example.com'), item('gone@example.com')]);
    expect(reads).toEqual([['a@example.com', 'b@example.com', 'gone@example.com']]);
    expect(result.data.map((r) => r.status)).toEqual(['sent', 'sent', 'failed']);
    // Refused as a single send is: 422, naming the suppressed recipient.
    expect(JSON.stringify(result.data[2]!.error)).toContain('gone@example.com');
    const cleared = world.contextReads.map((query) => query.clearOfSuppressions ?? []);
    expect(cleared).toEqual(expect.arrayContaining([['a@example.com'], ['b@example.com'], []]));
    expect(world.accepted).toHaveLength(2);
  });

  it("leaves out an item sent as a tenant (the tenant's list is read by the item), and a key limited to a tenant reads nothing ahead", async () => {
    const { deps, world, reads } = batchWorld();
    await sendBatch(deps, principal, [item('a@example.com'), item('t@example.com', { tenant: 'acme' })]);
    expect(reads).toEqual([['a@example.com']]);
    const tenantRead = world.contextReads.find((query) => query.recipients.includes('t@example.com'));
    expect(tenantRead?.clearOfSuppressions ?? []).toEqual([]);

    const limited = { ...principal, credential: { ...principal.credential, tenant: tenant().id } };
    const second = batchWorld();
    await sendBatch(second.deps, limited, [item('a@example.com')]);
    expect(second.reads).toEqual([]);
  });
});
