import { endpointsOncePerBatch, tenantsOncePerBatch } from '../../../shared/usecases/route-event';

describe('endpointsOncePerBatch', () => {
  it('reads each account once however many of its events a batch holds, and retries a failed read', async () => {
    const reads: string[] = [];
    let fail = true;
    const webhooks = endpointsOncePerBatch({
      listForAccount: async (accountId: string) => {
        reads.push(accountId);
        if (accountId === 'acc_b' && fail) {
          fail = false;
          throw new Error('throttled');
        }
        return [];
      },
    });
    await Promise.all([webhooks.listForAccount('acc_a'), webhooks.listForAccount('acc_a'), webhooks.listForAccount('acc_a')]);
    await expect(webhooks.listForAccount('acc_b')).rejects.toThrow('throttled');
    await webhooks.listForAccount('acc_b');
    expect(reads).toEqual(['acc_a', 'acc_b', 'acc_b']);
  });
});

describe('tenantsOncePerBatch', () => {
  it('reads each (account, tenant) once per batch, and another tenant or account separately', async () => {
    const reads: string[] = [];
    const tenants = tenantsOncePerBatch({
      find: async (accountId: string, ref: string) => {
        reads.push(`${accountId}/${ref}`);
        return null;
      },
    });
    await Promise.all([tenants.find('acc_a', 'acme'), tenants.find('acc_a', 'acme'), tenants.find('acc_a', 'globex'), tenants.find('acc_b', 'acme')]);
    await tenants.find('acc_a', 'acme');
    expect(reads).toEqual(['acc_a/acme', 'acc_a/globex', 'acc_b/acme']);
  });
});
