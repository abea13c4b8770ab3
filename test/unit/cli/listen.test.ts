/**
 * `mailservice listen` and `events resend` against a recorded API (the whole door on the local cloud:
 * test/integration/webhook-listener.test.ts): the listener adds a pull endpoint, forwards each delivery of its feed
 * once (a delivery the eventually consistent feed shows again is not forwarded twice), signed so the unmodified
 * `standardwebhooks` library verifies it with the printed secret, reports the answer, and deletes its endpoint when
 * stopped; a local URL that refuses the connection is reported with its error; `events resend` replays to the
 * account's listener endpoints (an event id names its delivery); a bad --forward-to is a usage error before any request.
 */
import { Writable } from 'node:stream';
import { Webhook } from 'standardwebhooks';
import { deliverySchema, webhookCreatedSchema } from '#functions/api/webhooks/schemas';
import { deliveryIdOf } from '#clients/cli/commands/listen';
import { forwardDelivery, type FeedDelivery } from '#clients/cli/listen/forward';
import type { CliIo } from '#clients/cli/io';
import { runCli } from '#clients/cli/program';
import { fakeApi, run } from './harness';

const SECRET = 'whsec_bGlzdGVuZXItc2VjcmV0LWZvci10aGUtdW5pdC10ZXN0cw==';
const WEBHOOK = {
  object: 'webhook',
  id: 'wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N',
  url: 'http://localhost:4000/hooks',
  events: ['email.delivered'],
  enabled: true,
  delivery: 'pull',
  last_pulled_at: null,
  secret_rotated_at: null,
  previous_secret_expires_at: null,
  created_at: '2026-11-28T10:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
};
const CREATED = webhookCreatedSchema.parse({ webhook: WEBHOOK, secret: SECRET });
const DELIVERY = deliverySchema.parse({
  object: 'webhook_delivery',
  id: 'whd_01JD8Z7Q0R5M3W2K9X7V4T1B8N',
  webhook_id: WEBHOOK.id,
  event_id: 'evt_01JD8Z7Q0R5M3W2K9X7V4T1B8N',
  event_type: 'email.delivered',
  status: 'pending',
  attempts: [],
  next_attempt_at: null,
  payload: { type: 'email.delivered', created_at: '2026-11-28T10:00:01.000Z', data: { email_id: 'msg_1' } },
  created_at: '2026-11-28T10:00:01.000Z',
  updated_at: '2026-11-28T10:00:01.000Z',
}) as FeedDelivery;
const FEED = { deliveries: [DELIVERY], has_more: false, next_cursor: null };

const calls = (requests: { method: string; url: URL }[]) => requests.map((request) => `${request.method} ${request.url.pathname}`);

/** The whole program in-process; the listener is stopped (Ctrl-C) at its `reads`th wait between reads. */
async function listenFor(reads: number, args: string[], answers: Parameters<typeof fakeApi>[0]) {
  const api = fakeApi(answers);
  let stdout = '';
  let stderr = '';
  let waits = 0;
  let interrupt: (() => void) | undefined;
  const io: CliIo = {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
    env: { MAILSERVICE_CONFIG: '/nonexistent/mailservice-test/config.json', MAILSERVICE_API_KEY: 'svc_test' },
    progressStream: new Writable({ write: (_chunk, _encoding, done) => done() }),
    fetch: api.fetch,
    sleep: async () => {
      if (++waits >= reads) interrupt?.();
    },
    onInterrupt: (handler) => {
      interrupt = handler;
      return () => undefined;
    },
  };
  const status = await runCli(args, io);
  return { status, stdout, stderr, requests: api.requests };
}

describe('mailservice listen', () => {
  it('adds a pull endpoint, forwards each delivery once, signed, reports it, and deletes the endpoint when stopped', async () => {
    const result = await listenFor(
      2,
      ['listen', '--forward-to', 'http://localhost:4000/hooks', '--events', 'email.delivered'],
      [
        () => ({ body: CREATED }),
        () => ({ body: FEED }),
        () => ({ status: 202, body: 'queued' }),
        () => ({ body: { delivery: { ...DELIVERY, status: 'succeeded' } } }),
        // The feed shows the reported delivery once more (its index not yet caught up): not forwarded again.
        () => ({ body: FEED }),
        () => ({ body: { ok: true } }),
      ],
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(calls(result.requests)).toEqual([
      'POST /webhooks',
      `GET /webhooks/${WEBHOOK.id}/feed`,
      'POST /hooks',
      `POST /webhooks/${WEBHOOK.id}/deliveries/${DELIVERY.id}/result`,
      `GET /webhooks/${WEBHOOK.id}/feed`,
      `DELETE /webhooks/${WEBHOOK.id}`,
    ]);
    expect(result.requests[0]!.body).toEqual({ url: 'http://localhost:4000/hooks', delivery: 'pull', events: ['email.delivered'] });
    const forwarded = result.requests[2]!;
    expect(forwarded.url.href).toBe('http://localhost:4000/hooks');
    expect(new Webhook(SECRET).verify(JSON.stringify(forwarded.body), forwarded.headers)).toEqual(DELIVERY.payload);
    expect(forwarded.headers['webhook-id']).toBe(DELIVERY.event_id);
    expect(result.requests[3]!.body).toEqual({
      status_code: 202,
      duration_ms: expect.any(Number),
      error: null,
      response_excerpt: '"queued"',
    });
    expect(result.stdout).toContain(`Signing secret: ${SECRET}`);
    expect(result.stdout).toContain(`--> email.delivered [${DELIVERY.event_id}]`);
    expect(result.stdout).toContain('<-- [202] POST http://localhost:4000/hooks');
    expect(result.stdout).toContain(`Stopped: listener endpoint ${WEBHOOK.id} deleted`);
  });

  it('reports a local URL that refuses the connection with its error', async () => {
    const refusing = (async () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    }) as typeof fetch;
    const result = await forwardDelivery(DELIVERY, { url: 'http://localhost:1/hooks', secret: SECRET, fetch: refusing });
    expect(result).toEqual({ status_code: null, duration_ms: expect.any(Number), error: 'ECONNREFUSED', response_excerpt: null });
  });

  it('refuses a --forward-to that is not an http(s) URL before any request (exit 2)', async () => {
    for (const url of ['localhost:4000', 'ftp://example.com/x']) {
      const api = fakeApi([]);
      const result = await run(['listen', '--forward-to', url], { fetch: api.fetch });
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('--forward-to');
      expect(api.requests).toEqual([]);
    }
  });
});

describe('mailservice events resend', () => {
  it('replays an event’s delivery to the account’s listener endpoints only', async () => {
    const api = fakeApi([
      () => ({
        body: {
          webhooks: [WEBHOOK, { ...WEBHOOK, id: 'wh_01JD8Z6Q0R5M3W2K9X7V4T1B8P', url: 'https://example.com/h', delivery: 'push' }],
          has_more: false,
          next_cursor: null,
        },
      }),
      () => ({ status: 202, body: { delivery: { ...DELIVERY, status: 'pending' } } }),
    ]);
    const result = await run(['events', 'resend', DELIVERY.event_id], { fetch: api.fetch });
    expect(result.status).toBe(0);
    expect(calls(api.requests)).toEqual(['GET /webhooks', `POST /webhooks/${WEBHOOK.id}/deliveries/${DELIVERY.id}/replay`]);
    expect(result.stdout).toBe(`${DELIVERY.id} replayed to ${WEBHOOK.id} (pending)\n`);
  });

  it('fails (exit 1) when no endpoint holds it, and takes only delivery or event ids', async () => {
    const api = fakeApi([
      () => ({ body: { webhooks: [WEBHOOK], has_more: false, next_cursor: null } }),
      () => ({ status: 404, body: { error: { message: 'Webhook delivery not found', code: 'not_found' } } }),
    ]);
    const result = await run(['events', 'resend', DELIVERY.id], { fetch: api.fetch });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`No webhook endpoint of the account holds ${DELIVERY.id}`);
    expect(deliveryIdOf(DELIVERY.event_id)).toBe(DELIVERY.id);
    expect(() => deliveryIdOf('msg_01JD8Z7Q0R5M3W2K9X7V4T1B8N')).toThrow(/delivery id/);
  });
});
