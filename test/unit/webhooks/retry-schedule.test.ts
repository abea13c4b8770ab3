/**
 * The retry schedule of a delivery to a failing endpoint (docs/webhooks.md, "Delivery and retries"): each failed attempt queues
 * the next with the schedule's delay (0 s, 5 s, 30 s, 2 min, 2 min by default; WEBHOOK_RETRY_DELAYS), each logged
 * as pending with its next attempt's time, and the attempt after the last retry fails the delivery. A replay starts
 * the whole schedule again (`retry_base`). The integration test (webhook-delivery.test.ts) sees the same schedule
 * end to end, shortened, where the machine's load blurs the time between two attempts.
 */
import { loadConfig } from '#shared/config/config';
import type { WebhookDeliveryMessage } from '#shared/domain/messages';
import { deliverWebhook, type DeliverWebhookDeps } from '#shared/usecases/webhooks/deliver-webhook';

const NOW = new Date('2026-11-30T12:00:00.000Z');

function failingEndpoint(retryDelays: number[]) {
  const attempts: unknown[] = [];
  const queued: { message: WebhookDeliveryMessage; delaySeconds: number }[] = [];
  const recorded: { status: string; nextAttemptAt: string | null }[] = [];
  const deps = {
    webhookDeliveries: {
      getWithEndpoint: async () => ({
        delivery: { id: 'whd_1', event_id: 'evt_1', status: 'pending', attempts: [...attempts], payload: '{}' },
        stored: {
          endpoint: { id: 'wh_1', url: 'https://example.com/h', enabled: true, delivery: 'push', previous_secret_expires_at: null },
          sealedSecret: 'sealed',
          previousSealedSecret: null,
        },
      }),
      recordAttempt: async (
        _webhookId: string,
        _deliveryId: string,
        attempt: unknown,
        next: { status: string; nextAttemptAt: string | null },
      ) => {
        attempts.push(attempt);
        recorded.push(next);
        return true;
      },
      cancel: async () => true,
    },
    webhookDeliveryQueue: {
      enqueue: async (message: WebhookDeliveryMessage, delaySeconds: number) => void queued.push({ message, delaySeconds }),
    },
    webhookSender: { send: async () => ({ statusCode: 503, durationMs: 1, error: null, responseExcerpt: 'down' }) },
    secretBox: { open: async () => 'whsec_c2VjcmV0' },
    clock: { now: () => NOW },
    retryDelays,
  } as unknown as DeliverWebhookDeps;
  /** Runs the attempts the queue hands out, from `first`, until none is queued: each attempt's outcome. */
  const drain = async (first: WebhookDeliveryMessage): Promise<string[]> => {
    const outcomes: string[] = [];
    let next: WebhookDeliveryMessage | undefined = first;
    while (next) {
      const before = queued.length;
      outcomes.push(await deliverWebhook(deps, next));
      next = queued.length > before ? queued[queued.length - 1]!.message : undefined;
    }
    return outcomes;
  };
  return { drain, queued, recorded };
}

const secondsLater = (seconds: number) => new Date(NOW.getTime() + seconds * 1000).toISOString();

it('the default schedule: a try, then retries after 0 s, 5 s, 30 s, 2 min and 2 min, then failed', async () => {
  const delays = loadConfig({}).webhookRetryDelays;
  expect(delays).toEqual([0, 5, 30, 120, 120]);
  const { drain, queued, recorded } = failingEndpoint(delays);
  expect(await drain({ webhook_id: 'wh_1', delivery_id: 'whd_1', attempt: 1 })).toEqual([
    'retrying',
    'retrying',
    'retrying',
    'retrying',
    'retrying',
    'failed',
  ]);
  expect(queued.map((q) => [q.message.attempt, q.delaySeconds])).toEqual([
    [2, 0],
    [3, 5],
    [4, 30],
    [5, 120],
    [6, 120],
  ]);
  expect(recorded).toEqual([
    ...delays.map((delay) => ({ status: 'pending', nextAttemptAt: secondsLater(delay) })),
    { status: 'failed', nextAttemptAt: null },
  ]);
});

it('the test stacks’ shortened schedule (0,1,1,1,1) keeps the number of retries; a replay gets the whole schedule again', async () => {
  const delays = loadConfig({ WEBHOOK_RETRY_DELAYS: '0,1,1,1,1' }).webhookRetryDelays;
  const { drain, queued } = failingEndpoint(delays);
  expect(await drain({ webhook_id: 'wh_1', delivery_id: 'whd_1', attempt: 1 })).toHaveLength(6);
  expect(queued.map((q) => q.delaySeconds)).toEqual([0, 1, 1, 1, 1]);
  // A replay of the failed delivery: attempt 7, its retries counted from there.
  const replay = failingEndpoint(delays);
  const replayed = await replay.drain({ webhook_id: 'wh_1', delivery_id: 'whd_1', attempt: 7, retry_base: 6 });
  expect(replayed.at(-1)).toBe('failed');
  expect(replay.queued.map((q) => [q.message.attempt, q.delaySeconds])).toEqual([
    [8, 0],
    [9, 1],
    [10, 1],
    [11, 1],
    [12, 1],
  ]);
});
