/**
 * Nothing refused is left behind: a raw message the MX listener stored and could not queue does not stay
 * in the bucket. A second MX listener (the product's, as functions/smtp-relay/main.ts builds it) runs in
 * this process against the stack's table and bucket, with its inbound queue made to fail for real:
 *
 *   - a queue that does not exist on the local SQS (fauxqs answers NonExistentQueue): 451, and the
 *     listener deletes what it stored before answering;
 *   - an SQS endpoint that never answers (the listener is stuck, as if it had crashed between storing
 *     and queueing): the stack's own reconciler deletes the raw message once its marker is past the
 *     listener's bound, unclaimed (1 s here instead of 15 days, so only this listener's messages are due).
 *
 * And what is queued stays: a message accepted by the same listener with a working queue is recorded by
 * the stack's worker from an object the reconciler leaves alone.
 */
import net from 'node:net';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { certificate } from '#localstack/cloud/tls/smtp-relay';
import { loadConfig } from '#shared/config/config';
import { createMxServer, UNCLAIMED_RAW_BOUND_MS, type MxServer } from '#shared/doors/mx/mx-server';
import { buildMessaging } from '#shared/services/messaging';
import { buildPlatform } from '#shared/services/platform';
import { receivedIds, receivingDomain, waitForReceived } from './harness/inbound';
import { relay } from './harness/smtp';
import { newAccount, stack, waitFor, type TestAccount } from './harness/stack';
import { runTask, waitWithReconciler } from './harness/tasks';

const BOUND_MS = 1000;

describe('raw inbound messages not queued are deleted', () => {
  let account: TestAccount;
  let domain: Awaited<ReturnType<typeof receivingDomain>>;
  const listeners: MxServer[] = [];
  const blackholes: net.Server[] = [];
  const sockets: net.Socket[] = [];
  let tls: { key: string; cert: string };

  /** A listener on the stack's services with `inboundQueue`; `stored` collects the raw keys it writes. */
  async function listener(inboundQueue: ReturnType<typeof buildMessaging>['inboundQueue'], unclaimedRawBoundMs?: number) {
    const { services } = stack();
    const stored: string[] = [];
    const blobs = {
      put: (key: string, body: string | Buffer, contentType: string) => {
        stored.push(key);
        return services.blobs.put(key, body, contentType);
      },
      delete: (key: string) => services.blobs.delete(key),
    };
    const mx = createMxServer(
      { tls, hostname: 'mx.orphans.test', closeTimeoutMs: 500, ...(unclaimedRawBoundMs ? { unclaimedRawBoundMs } : {}) },
      { ...services, blobs, inboundQueue },
    );
    listeners.push(mx);
    const port = await mx.listen(0, '127.0.0.1');
    const send = (subject: string) =>
      nodemailer
        .createTransport({
          host: '127.0.0.1',
          port,
          secure: false,
          tls: { ca: relay().ca, servername: 'localhost' },
          name: 'sender.example-mail.test',
          socketTimeout: 60_000,
        })
        .sendMail({ from: 'someone@example.org', to: domain.address('orphans'), subject, text: 'hello' });
    return { stored, send };
  }

  /** The stack's messaging, with `change` applied to its configuration (a queue URL, an endpoint). */
  const messagingWith = (change: (config: ReturnType<typeof loadConfig>) => Partial<ReturnType<typeof loadConfig>>) => {
    const config = loadConfig(process.env);
    return buildMessaging(buildPlatform({ ...config, ...change(config) }));
  };

  beforeAll(async () => {
    process.env.LOG_LEVEL = 'silent';
    stack();
    // The stack's relay and MX certificate.
    const { key, cert } = await certificate(join(process.env.TEST_STACK_DATA_DIR!, 'smtp-relay'));
    tls = { key, cert };
    account = await newAccount({ plan: 'scale', paymentMethod: true });
    domain = await receivingDomain(account);
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all(blackholes.map((server) => new Promise((resolve) => server.close(resolve))));
    await Promise.all(listeners.map((mx) => mx.close()));
  });

  it('answers 451 when the queue refuses, and leaves no stored object behind', async () => {
    const missingQueue = messagingWith((config) => ({ inboundQueueUrl: `${config.inboundQueueUrl}-does-not-exist` }));
    const { stored, send } = await listener(missingQueue.inboundQueue);
    await expect(send('queue refused')).rejects.toMatchObject({ responseCode: 451 });
    expect(stored).toEqual([expect.stringMatching(/^inbound\/raw\/[0-9A-Z]{26}\.eml$/)]);
    const { services } = stack();
    expect(await services.blobs.head(stored[0]!)).toBeNull();
    expect(await services.inboundRawMarkers.get(stored[0]!)).toMatchObject({ status: 'discarded' });
    expect(await services.inboundRawMarkers.pastDue(Date.now() + 3_600_000, 1000)).not.toContain(stored[0]);
  });

  it("deletes a message stored by a listener stuck before queueing it, once past the bound (the stack's reconciler)", async () => {
    const blackhole = net.createServer((socket) => void sockets.push(socket));
    blackholes.push(blackhole);
    await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
    const stuck = messagingWith((config) => ({
      endpoints: { ...config.endpoints, sqs: `http://127.0.0.1:${(blackhole.address() as net.AddressInfo).port}` },
    }));
    const { stored, send } = await listener(stuck.inboundQueue, BOUND_MS);
    const answer = send('listener stuck').catch((error: unknown) => error);
    const { services } = stack();
    // Stored (its marker pending) and never queued.
    const rawKey = await waitFor(
      async () => stored[0] && (await services.blobs.head(stored[0])) && stored[0],
      'the raw message stored',
      10_000,
      20,
    );
    // Its marker is written beside the PUT (as DATA starts, docs/inbound.md): the object can be seen a moment
    // before the marker is, so the marker is waited for, not read once.
    await waitFor(
      async () => {
        const marker = await services.inboundRawMarkers.get(rawKey);
        return marker?.status === 'pending' || marker?.status === 'discarded';
      },
      'the raw message marked pending',
      10_000,
      20,
    );
    // The stack's reconciler deletes it once the marker is past the bound (a pass asked for each second).
    await waitWithReconciler(
      async () => (await services.blobs.head(rawKey)) === null,
      'the unqueued raw message deleted by the reconciler',
      20_000,
      200,
    );
    expect(await services.inboundRawMarkers.get(rawKey)).toMatchObject({ status: 'discarded' });
    await waitFor(
      async () => !(await services.inboundRawMarkers.pastDue(Date.now() + 3_600_000, 1000)).includes(rawKey),
      'the marker out of the index',
      10_000,
      100,
    );
    // The endpoint goes away: the stuck queue call fails, and the listener answers 451 (it never said 250).
    const closed = new Promise((resolve) => blackhole.close(resolve));
    for (const socket of sockets) socket.destroy();
    await closed;
    expect(await answer).toMatchObject({ responseCode: 451 });
  }, 60_000);

  it('settles each marker once: a worker quicker than the listener is as good as queued, a discarded one is not', async () => {
    const { services } = stack();
    const markers = services.inboundRawMarkers;
    const key = (name: string) => `inbound/raw/markers-test-${name}-${Date.now()}.eml`;
    const claimedFirst = key('claimed');
    await markers.begin(claimedFirst, new Date(), Date.now() + 60_000);
    expect(await markers.claim(claimedFirst, new Date())).toBe('claimed');
    expect(await markers.discard(claimedFirst, Date.now())).toBe(false);
    expect(await markers.discardUnstored(claimedFirst)).toBe(false);
    // The reconciler's discard leaves it alone too.
    expect(await markers.discardDue(claimedFirst, Date.now())).toBe(false);
    expect(await markers.get(claimedFirst)).toMatchObject({ status: 'claimed' });

    const discardedFirst = key('discarded');
    await markers.begin(discardedFirst, new Date(), Date.now() + 60_000);
    expect(await markers.discard(discardedFirst, Date.now())).toBe(true);
    expect(await markers.claim(discardedFirst, new Date())).toBe('discarded');
    // Discarded with its object not yet deleted: the reconciler's discard says to delete it (again), the listener's does not.
    expect(await markers.discard(discardedFirst, Date.now())).toBe(false);
    expect(await markers.discardDue(discardedFirst, Date.now())).toBe(true);
    await markers.forget(discardedFirst);
    expect(await markers.get(discardedFirst)).toMatchObject({ status: 'discarded' });

    // Given back before anything was stored (a refused message): discarded and out of the index at once.
    const givenBack = key('given-back');
    await markers.begin(givenBack, new Date(), Date.now() + 60_000);
    expect(await markers.discardUnstored(givenBack)).toBe(true);
    expect(await markers.get(givenBack)).toMatchObject({ status: 'discarded' });
    expect(await markers.pastDue(Date.now() + 120_000, 1000)).not.toContain(givenBack);
    expect(await markers.claim(givenBack, new Date())).toBe('discarded');

    // Racing: a worker's claim and the reconciler's discard on one pending marker, many times: exactly one wins each.
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, async (_, n) => {
        const raced = key(`race-${n}`);
        await markers.begin(raced, new Date(), Date.now() + 60_000);
        const [claim, discard] = await Promise.all([markers.claim(raced, new Date()), markers.discard(raced, Date.now())]);
        return { claimed: claim === 'claimed', discarded: discard, status: (await markers.get(raced))!.status };
      }),
    );
    for (const outcome of outcomes) {
      expect(outcome.claimed !== outcome.discarded).toBe(true);
      expect(outcome.status).toBe(outcome.claimed ? 'claimed' : 'discarded');
    }
  });

  it('leaves a queued message alone: the worker records it from the stored object, past the bound', async () => {
    const { stored, send } = await listener(messagingWith(() => ({})).inboundQueue);
    const info = await send('queued in time');
    const [id] = receivedIds(info.response);
    const email = await waitForReceived(account, id!);
    expect(email).toMatchObject({ subject: 'queued in time' });
    const { services } = stack();
    expect(await services.inboundRawMarkers.get(stored[0]!)).toMatchObject({ status: 'claimed' });
    // Claimed, it is out of the reconciler's index: no pass finds it, however long after its bound.
    expect(await services.inboundRawMarkers.pastDue(Date.now() + UNCLAIMED_RAW_BOUND_MS + 60_000, 1000)).not.toContain(stored[0]);
    // Two reconciler passes later, the raw message is still there.
    await runTask('reconciler');
    await runTask('reconciler');
    expect(await services.blobs.head(stored[0]!)).toMatchObject({ size: email.size });
    expect(await (await fetch(email.raw.download_url)).text()).toContain('Subject: queued in time');
  }, 60_000);
});
