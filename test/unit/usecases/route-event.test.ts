import { endpointsOncePerBatch, REQUEUE_PENDING_AFTER_MS, routeEvent, tenantsOncePerBatch } from '#shared/usecases/webhooks/route-event';
import { LISTENER_IDLE_MS } from '#shared/domain/webhooks/listener';

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

describe('routeEvent: a pull endpoint (a listener reads its feed)', () => {
  const NOW = new Date('2026-11-28T12:00:00.000Z');
  const event = {
    id: 'evt_01JABCDEFGHJKMNPQRSTVWXYZ0',
    type: 'email.sent' as const,
    account_id: 'acc_1',
    tenant: null,
    created_at: NOW.toISOString(),
    data: { email_id: 'msg_1' },
  };
  const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

  function world(endpoint: Record<string, unknown>) {
    const created: { delivery: any; options: any }[] = [];
    const queued: unknown[] = [];
    const deps = {
      webhooks: {
        listForAccount: async () => [
          { id: 'wh_1', account_id: 'acc_1', enabled: true, events: ['email.sent'], tenants: null, ...endpoint },
        ],
      },
      tenants: { find: async () => null },
      emails: { get: async () => null },
      webhookDeliveries: {
        create: async (delivery: unknown, options: unknown) => {
          created.push({ delivery, options });
          return true;
        },
        get: async () => null,
      },
      webhookDeliveryQueue: { enqueue: async (message: unknown) => void queued.push(message) },
      clock: { now: () => NOW },
    } as unknown as Parameters<typeof routeEvent>[0];
    return { deps, created, queued };
  }

  it('puts the delivery in the feed, with no next attempt, and queues nothing', async () => {
    const { deps, created, queued } = world({ delivery: 'pull', last_pulled_at: ago(30_000), created_at: ago(60_000) });
    expect(await routeEvent(deps, event)).toBe(0);
    expect(created).toEqual([{ delivery: expect.objectContaining({ status: 'pending', next_attempt_at: null }), options: { feed: true } }]);
    expect(queued).toEqual([]);
  });

  it('skips an endpoint nobody has read for LISTENER_IDLE_MS (a listener that stopped), counting from its creation when never read', async () => {
    for (const endpoint of [
      { delivery: 'pull', last_pulled_at: ago(LISTENER_IDLE_MS), created_at: ago(2 * LISTENER_IDLE_MS) },
      { delivery: 'pull', last_pulled_at: null, created_at: ago(LISTENER_IDLE_MS + 1) },
    ]) {
      const { deps, created } = world(endpoint);
      await routeEvent(deps, event);
      expect(created).toEqual([]);
    }
    const { deps, created } = world({ delivery: 'pull', last_pulled_at: null, created_at: ago(LISTENER_IDLE_MS - 1_000) });
    await routeEvent(deps, event);
    expect(created).toHaveLength(1);
  });

  it('queues a push endpoint’s delivery beside it, in the due index (not the feed)', async () => {
    const { deps, created, queued } = world({ delivery: 'push', last_pulled_at: null, created_at: ago(LISTENER_IDLE_MS * 10) });
    expect(await routeEvent(deps, event)).toBe(1);
    expect(created[0]!.options).toEqual({ feed: false });
    expect(queued).toHaveLength(1);
  });
});
