import { endpointsOncePerBatch, REQUEUE_PENDING_AFTER_MS, routeEvent, tenantsOncePerBatch } from '#shared/usecases/webhooks/route-event';

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
    await Promise.all([
      tenants.find('acc_a', 'acme'),
      tenants.find('acc_a', 'acme'),
      tenants.find('acc_a', 'globex'),
      tenants.find('acc_b', 'acme'),
    ]);
    await tenants.find('acc_a', 'acme');
    expect(reads).toEqual(['acc_a/acme', 'acc_a/globex', 'acc_b/acme']);
  });
});

describe('routeEvent: an event seen before', () => {
  const NOW = new Date('2026-11-23T12:00:00.000Z');
  const endpoint = { id: 'wh_1', account_id: 'acc_1', enabled: true, events: ['contact.unsubscribed'], tenants: null } as never;
  const event = {
    id: 'evt_01JABCDEFGHJKMNPQRSTVWXYZ0',
    type: 'contact.unsubscribed' as const,
    account_id: 'acc_1',
    tenant: null,
    created_at: NOW.toISOString(),
    data: { email: 'a@example.com' },
  };

  function world(existing: { status: string; attempts: unknown[]; created_at: string } | null) {
    const queued: unknown[] = [];
    const deps = {
      webhooks: { listForAccount: async () => [endpoint] },
      tenants: { find: async () => null },
      emails: { get: async () => null },
      webhookDeliveries: { create: async () => existing === null, get: async () => existing },
      webhookDeliveryQueue: { enqueue: async (message: unknown) => void queued.push(message) },
      clock: { now: () => NOW },
    } as unknown as Parameters<typeof routeEvent>[0];
    return { deps, queued };
  }

  it('queues a new delivery', async () => {
    const { deps, queued } = world(null);
    expect(await routeEvent(deps, event)).toBe(1);
    expect(queued).toEqual([{ webhook_id: 'wh_1', delivery_id: expect.any(String), attempt: 1 }]);
  });

  it('does not queue a second first attempt for a duplicate published moments after the first', async () => {
    const { deps, queued } = world({ status: 'pending', attempts: [], created_at: new Date(NOW.getTime() - 2_000).toISOString() });
    expect(await routeEvent(deps, event)).toBe(0);
    expect(queued).toEqual([]);
  });

  it('queues again a pending delivery never attempted once it is old enough (the first routing died before queueing)', async () => {
    const { deps, queued } = world({
      status: 'pending',
      attempts: [],
      created_at: new Date(NOW.getTime() - REQUEUE_PENDING_AFTER_MS).toISOString(),
    });
    expect(await routeEvent(deps, event)).toBe(1);
    expect(queued).toHaveLength(1);
  });

  it('leaves a delivery already attempted or finished to its own schedule', async () => {
    const old = new Date(NOW.getTime() - 10 * REQUEUE_PENDING_AFTER_MS).toISOString();
    for (const existing of [
      { status: 'pending', attempts: [{}], created_at: old },
      { status: 'succeeded', attempts: [{}], created_at: old },
    ]) {
      const { deps, queued } = world(existing);
      expect(await routeEvent(deps, event)).toBe(0);
      expect(queued).toEqual([]);
    }
  });
});
