/**
 * `mailservice listen` against the local cloud (issue 50 item 2; docs/webhooks.md, "Receiving events on your
 * laptop"): the CLI, run in-process with the real fetch, adds a pull endpoint, reads its feed and forwards a real
 * send's email.sent and email.delivered to a plain http://127.0.0.1 server, signed with the secret it printed
 * (verified by the unmodified `standardwebhooks` library); each answer is reported and logged as the delivery's
 * attempt, and the delivery leaves the feed; `events resend <evt_>` puts one back and the running listener
 * forwards it again (the same webhook-id); Ctrl-C deletes the endpoint. The API's rules: a pull endpoint may name
 * an http:// URL (a push endpoint may not); a push endpoint has no feed (409); two reports of one delivery at the
 * same moment: one 200, one 409 (DynamoDB's condition, raced with real requests).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Webhook } from 'standardwebhooks';
import type { CliIo } from '#clients/cli/io';
import { runCli } from '#clients/cli/program';
import { api, newAccount, stack, waitFor, type TestAccount } from './harness/stack';

const SANDBOX = 'sandbox.mailservice.dev';

interface Received {
  at: number;
  headers: Record<string, string>;
  body: string;
}

/** A plain HTTP server on loopback, as a developer's handler on their laptop: answers `status` and records each request. */
async function localHandler(status = 200): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ at: Date.now(), headers: request.headers as Record<string, string>, body });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'handler failed');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, server };
}

/** The CLI in-process: its output as it comes, and a Ctrl-C the test presses. */
function cliRun(account: TestAccount, args: string[]) {
  let stdout = '';
  let stderr = '';
  const interrupts: (() => void)[] = [];
  const io: CliIo = {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
    env: {
      MAILSERVICE_CONFIG: '/nonexistent/mailservice-test/config.json',
      MAILSERVICE_API_KEY: account.key,
      MAILSERVICE_BASE_URL: stack().apiUrl,
    },
    progressStream: new Writable({ write: (_chunk, _encoding, done) => done() }),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    onInterrupt(handler) {
      interrupts.push(handler);
      return () => interrupts.splice(interrupts.indexOf(handler), 1);
    },
  };
  const exit = runCli(args, io);
  return {
    exit,
    output: () => stdout,
    errors: () => stderr,
    interrupt: () => {
      for (const handler of [...interrupts]) handler();
    },
  };
}

describe('mailservice listen: webhook events on a laptop, no public URL', () => {
  const servers: Server[] = [];
  afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

  it('forwards a real send’s email.sent and email.delivered, signed, reports each answer, replays one, and deletes its endpoint on Ctrl-C', async () => {
    const account = await newAccount();
    const handler = await localHandler(200);
    servers.push(handler.server);
    const listener = cliRun(account, [
      'listen',
      '--forward-to',
      handler.url,
      '--events',
      'email.sent,email.delivered',
      '--interval',
      '500',
    ]);
    const ready = await waitFor(
      () => /Signing secret: (whsec_\S+)\s+\(listener endpoint (wh_\w+)/.exec(listener.output()),
      'the listener to be ready',
    );
    const [, secret, webhookId] = ready;

    const endpoint = await api('GET', `/webhooks/${webhookId}`, { key: account.key });
    expect(endpoint.body.webhook).toMatchObject({ url: handler.url, delivery: 'pull', events: ['email.sent', 'email.delivered'] });

    const send = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${SANDBOX}`, to: account.email, subject: 'listened', text: 't' },
    });
    expect(send.status).toBe(200);
    await waitFor(() => handler.received.length >= 2, 'email.sent and email.delivered at the local handler');

    const verifier = new Webhook(secret!);
    const events = handler.received.map((request) => ({ request, event: verifier.verify(request.body, request.headers) as any }));
    expect(events.map(({ event }) => event.type).sort()).toEqual(['email.delivered', 'email.sent']);
    for (const { event, request } of events) {
      expect(event.data.email_id).toBe(send.body.id);
      expect(request.headers['service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      // From the event's time to the local handler (the figure: under 2 s each on the local cloud).
      console.log(`listen: ${event.type} forwarded ${request.at - Date.parse(event.created_at)} ms after the event`);
    }

    // Each answer reported: the delivery log shows the attempt, and the feed is empty once the index catches up.
    const log = await waitFor(async () => {
      const page = await api('GET', `/webhooks/${webhookId}/deliveries`, { key: account.key });
      return page.body.deliveries.length === 2 && page.body.deliveries.every((d: any) => d.status === 'succeeded') && page.body.deliveries;
    }, 'both deliveries reported');
    expect(log[0].attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, response_excerpt: 'ok', error: null })]);
    await waitFor(
      async () => (await api('GET', `/webhooks/${webhookId}/feed`, { key: account.key })).body.deliveries.length === 0,
      'an empty feed',
    );

    // `events resend` with the event id: the running listener forwards it again, with the same webhook-id.
    const delivered = events.find(({ event }) => event.type === 'email.delivered')!;
    const eventId = delivered.request.headers['webhook-id']!;
    const resend = cliRun(account, ['events', 'resend', eventId]);
    expect(await resend.exit).toBe(0);
    expect(resend.output()).toContain(`replayed to ${webhookId}`);
    await waitFor(() => handler.received.length >= 3, 'the replayed delivery at the local handler');
    expect(handler.received[2]!.headers['webhook-id']).toBe(eventId);

    listener.interrupt();
    expect(await listener.exit).toBe(0);
    expect(listener.output()).toContain(`Stopped: listener endpoint ${webhookId} deleted`);
    expect((await api('GET', `/webhooks/${webhookId}`, { key: account.key })).status).toBe(404);
  });

  it('takes an http:// URL only for a pull endpoint, has no feed for a push one, and takes one report per delivery', async () => {
    const account = await newAccount();
    const push = await api('POST', '/webhooks', { key: account.key, body: { url: 'http://127.0.0.1:9/hooks' } });
    expect(push.status).toBe(400);
    expect(push.body.error.details.fields).toEqual([{ field: 'url', message: 'url must use HTTPS (got http://)' }]);

    const pull = await api('POST', '/webhooks', {
      key: account.key,
      body: { url: 'http://127.0.0.1:9/hooks', delivery: 'pull', events: ['email.sent'] },
    });
    expect(pull.status).toBe(200);
    const webhookId = pull.body.webhook.id;
    expect(pull.body.webhook).toMatchObject({ delivery: 'pull', last_pulled_at: null });
    // A pull endpoint's URL is the listener's: a change to http:// is taken too.
    const patched = await api('PATCH', `/webhooks/${webhookId}`, { key: account.key, body: { url: 'http://localhost:4000/x' } });
    expect(patched.status).toBe(200);

    const other = await api('POST', '/webhooks', { key: account.key, body: { url: `${stack().info.webhook_inbox_url}listener-push` } });
    const noFeed = await api('GET', `/webhooks/${other.body.webhook.id}/feed`, { key: account.key });
    expect(noFeed.status).toBe(409);
    expect(noFeed.body.error.message).toContain('delivers by push');

    // A test event reaches the feed; the read records last_pulled_at.
    expect((await api('POST', '/emails/test', { key: account.key, body: { event: 'email.sent' } })).status).toBe(200);
    const [waiting] = await waitFor(async () => {
      const feed = await api('GET', `/webhooks/${webhookId}/feed`, { key: account.key });
      expect(feed.status).toBe(200);
      return feed.body.deliveries.length === 1 && feed.body.deliveries;
    }, 'the test event in the feed');
    expect(waiting).toMatchObject({ status: 'pending', attempts: [], next_attempt_at: null, event_type: 'email.sent' });
    expect((await api('GET', `/webhooks/${webhookId}`, { key: account.key })).body.webhook.last_pulled_at).toEqual(expect.any(String));

    // Two reports at once: DynamoDB's condition takes exactly one.
    const report = (status_code: number) =>
      api('POST', `/webhooks/${webhookId}/deliveries/${waiting.id}/result`, { key: account.key, body: { status_code, duration_ms: 3 } });
    const answers = await Promise.all([report(200), report(500)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const taken = answers.find((answer) => answer.status === 200)!.body.delivery;
    expect(taken.attempts).toHaveLength(1);
    const stored = await api('GET', `/webhooks/${webhookId}/deliveries/${waiting.id}`, { key: account.key });
    expect(stored.body.delivery).toMatchObject({ status: taken.status, attempts: [expect.objectContaining({ attempt: 1 })] });
    const bad = await api('POST', `/webhooks/${webhookId}/deliveries/${waiting.id}/result`, { key: account.key, body: {} });
    expect(bad.status).toBe(400);
  });
});
