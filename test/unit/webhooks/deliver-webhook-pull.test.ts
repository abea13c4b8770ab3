/**
 * The delivery worker and a pull endpoint (docs/webhooks.md, "Receiving events on your laptop"): a queue message of
 * a pull endpoint's delivery (none is queued for one, but a replay from before it became one, or a stray message,
 * can reach the worker) is skipped: nothing is POSTed to its url, nothing recorded, the delivery stays in the feed.
 */
import { deliverWebhook, type DeliverWebhookDeps } from '#shared/usecases/webhooks/deliver-webhook';

describe('deliverWebhook', () => {
  function world(delivery: 'push' | 'pull') {
    const posts: unknown[] = [];
    const records: unknown[] = [];
    const deps = {
      webhookDeliveries: {
        getWithEndpoint: async () => ({
          delivery: { id: 'whd_1', event_id: 'evt_1', status: 'pending', attempts: [], payload: '{}' },
          stored: {
            endpoint: { id: 'wh_1', url: 'https://example.com/h', enabled: true, delivery, previous_secret_expires_at: null },
            sealedSecret: 'sealed',
            previousSealedSecret: null,
          },
        }),
        recordAttempt: async (...args: unknown[]) => {
          records.push(args);
          return true;
        },
        cancel: async () => true,
      },
      webhookDeliveryQueue: { enqueue: async () => undefined },
      webhookSender: {
        send: async (request: unknown) => {
          posts.push(request);
          return { statusCode: 200, durationMs: 1, error: null, responseExcerpt: 'ok' };
        },
      },
      secretBox: { open: async () => 'whsec_c2VjcmV0' },
      clock: { now: () => new Date('2026-11-28T12:00:00.000Z') },
      retryDelays: [0],
    } as unknown as DeliverWebhookDeps;
    return { deps, posts, records };
  }

  it('skips a pull endpoint’s delivery: no POST, no attempt recorded', async () => {
    const { deps, posts, records } = world('pull');
    expect(await deliverWebhook(deps, { webhook_id: 'wh_1', delivery_id: 'whd_1', attempt: 1 })).toBe('skipped');
    expect(posts).toEqual([]);
    expect(records).toEqual([]);
  });

  it('POSTs a push endpoint’s delivery as before', async () => {
    const { deps, posts, records } = world('push');
    expect(await deliverWebhook(deps, { webhook_id: 'wh_1', delivery_id: 'whd_1', attempt: 1 })).toBe('succeeded');
    expect(posts).toHaveLength(1);
    expect(records).toHaveLength(1);
  });
});
