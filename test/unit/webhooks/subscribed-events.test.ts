/**
 * Service events only for accounts with a webhook endpoint (shared/usecases/webhooks/subscribed-events.ts): the
 * other accounts' events never reach the webhook events queue. In-memory fakes of the publisher and the presence.
 */
import type { ServiceEventMessage } from '#shared/domain/messages';
import { publishToSubscribers, type EndpointPresence } from '#shared/usecases/webhooks/subscribed-events';

const event = (id: string, account: string): ServiceEventMessage => ({
  id,
  type: 'email.sent',
  account_id: account,
  tenant: null,
  created_at: '2026-11-27T09:00:00.000Z',
  data: { email_id: `msg_${id}` },
});

function fakes(withEndpoints: string[]) {
  const published: ServiceEventMessage[][] = [];
  const asked: string[][] = [];
  const presence: EndpointPresence = {
    async accountsWithEndpoints(ids) {
      asked.push([...ids]);
      return new Set(ids.filter((id) => withEndpoints.includes(id)));
    },
  };
  const inner = { publish: async (events: ServiceEventMessage[]) => void published.push(events) };
  return { publisher: publishToSubscribers(inner, presence), published, asked };
}

describe('publishToSubscribers', () => {
  test('publishes the events of accounts with an endpoint, in their order, and drops the others', async () => {
    const { publisher, published, asked } = fakes(['acc_hooks']);
    await publisher.publish([event('1', 'acc_hooks'), event('2', 'acc_none'), event('3', 'acc_hooks')]);
    expect(published).toEqual([[event('1', 'acc_hooks'), event('3', 'acc_hooks')]]);
    // One question for the whole batch.
    expect(asked).toEqual([['acc_hooks', 'acc_none', 'acc_hooks']]);
  });

  test('sends nothing at all when no account of the batch has an endpoint', async () => {
    const { publisher, published } = fakes([]);
    await publisher.publish([event('1', 'acc_none'), event('2', 'acc_other')]);
    expect(published).toEqual([]);
  });

  test('an empty batch asks nothing and sends nothing', async () => {
    const { publisher, published, asked } = fakes(['acc_hooks']);
    await publisher.publish([]);
    expect(asked).toEqual([]);
    expect(published).toEqual([]);
  });

  test('a failed presence read fails the publish (the caller retries), never drops the events silently', async () => {
    const inner = { publish: jest.fn(async () => undefined) };
    const publisher = publishToSubscribers(inner, {
      accountsWithEndpoints: async () => {
        throw new Error('ProvisionedThroughputExceededException');
      },
    });
    await expect(publisher.publish([event('1', 'acc_hooks')])).rejects.toThrow('ProvisionedThroughputExceededException');
    expect(inner.publish).not.toHaveBeenCalled();
  });
});
