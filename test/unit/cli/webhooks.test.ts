/**
 * `mailservice webhooks` against a recorded API (its answers checked against the API's own response schemas):
 * `rotate-secret` POSTs the overlap in seconds (from 3600, 30m, 24h or 7d; 24h by default), prints the endpoint
 * and the new secret once (the warning on stderr); `stop-previous-secret` DELETEs /webhooks/{id}/secret/previous;
 * `list` reads every page; a bad --overlap is a usage error (exit 2) before any request; the API's 409 exits 1
 * with its message. The API itself: test/integration/webhook-secret-rotation.test.ts.
 */
import { webhookEnvelopeSchema, webhookRotatedSchema, webhookSchema } from '#functions/api/webhooks/schemas';
import { overlapSeconds } from '#clients/cli/commands/webhooks';
import { fakeApi, run } from './harness';

const WEBHOOK = {
  object: 'webhook',
  id: 'wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N',
  url: 'https://example.com/hooks',
  events: ['email.delivered'],
  enabled: true,
  delivery: 'push',
  secret_rotated_at: '2026-11-28T10:00:00.000Z',
  previous_secret_expires_at: '2026-11-28T10:30:00.000Z',
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
};
const ROTATED = webhookRotatedSchema.parse({ webhook: WEBHOOK, secret: 'whsec_bmV3LXNlY3JldC1mb3ItdGhlLWNsaS10ZXN0cw==' });
const STOPPED = webhookEnvelopeSchema.parse({ webhook: { ...WEBHOOK, previous_secret_expires_at: null } });

const calls = (requests: { method: string; url: URL }[]) =>
  requests.map((request) => `${request.method} ${request.url.pathname}${request.url.search}`);

describe('mailservice webhooks', () => {
  it('rotate-secret POSTs the overlap in seconds and prints the endpoint and the new secret once', async () => {
    const api = fakeApi([() => ({ body: ROTATED })]);
    const result = await run(['webhooks', 'rotate-secret', 'wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N', '--overlap', '30m'], { fetch: api.fetch });
    expect(result.status).toBe(0);
    expect(calls(api.requests)).toEqual(['POST /webhooks/wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N/secret']);
    expect(api.requests[0]!.body).toEqual({ overlap_seconds: 1800 });
    expect(result.stdout).toContain('previous secret signs until: 2026-11-28T10:30:00.000Z');
    expect(result.stdout).toContain(`secret: ${ROTATED.secret}\n`);
    expect(result.stderr).toContain('shown only once');
  });

  it('takes a day by default, and --json prints the answer as it came', async () => {
    const api = fakeApi([() => ({ body: ROTATED })]);
    const result = await run(['--json', 'webhooks', 'rotate-secret', 'wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N'], { fetch: api.fetch });
    expect(api.requests[0]!.body).toEqual({ overlap_seconds: 86_400 });
    expect(JSON.parse(result.stdout)).toEqual(ROTATED);
  });

  it('refuses an --overlap that is not a duration before any request (exit 2)', async () => {
    const api = fakeApi([]);
    const result = await run(['webhooks', 'rotate-secret', 'wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N', '--overlap', 'soon'], { fetch: api.fetch });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--overlap takes a duration');
    expect(api.requests).toEqual([]);
    expect([overlapSeconds('0'), overlapSeconds('3600'), overlapSeconds('90s'), overlapSeconds('24h'), overlapSeconds('7d')]).toEqual([
      0, 3600, 90, 86_400, 604_800,
    ]);
  });

  it("exits 1 with the API's message on a 409 (a rotation at the same moment)", async () => {
    const api = fakeApi([
      () => ({
        status: 409,
        body: { error: { code: 'conflict', message: 'The secret was rotated by another request at the same moment.' } },
      }),
    ]);
    const result = await run(['webhooks', 'rotate-secret', 'wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N'], { fetch: api.fetch });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('rotated by another request');
  });

  it('stop-previous-secret DELETEs the previous secret and prints the endpoint', async () => {
    const api = fakeApi([() => ({ body: STOPPED })]);
    const result = await run(['webhooks', 'stop-previous-secret', 'wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N'], { fetch: api.fetch });
    expect(result.status).toBe(0);
    expect(calls(api.requests)).toEqual(['DELETE /webhooks/wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N/secret/previous']);
    expect(result.stdout).toContain('previous secret signs until: (none signs)');
  });

  it('list reads every page', async () => {
    const second = { ...WEBHOOK, id: 'wh_01JD8Z7A2C4E6G8J0K2M4P6R8T', secret_rotated_at: null, previous_secret_expires_at: null };
    const api = fakeApi([
      () => ({ body: { webhooks: [webhookSchema.parse(WEBHOOK)], has_more: true, next_cursor: 'c1' } }),
      () => ({ body: { webhooks: [webhookSchema.parse(second)], has_more: false, next_cursor: null } }),
    ]);
    const result = await run(['webhooks', 'list'], { fetch: api.fetch });
    expect(result.status).toBe(0);
    expect(api.requests).toHaveLength(2);
    expect(result.stdout).toMatch(/wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N .*2026-11-28T10:00:00.000Z/);
    expect(result.stdout).toMatch(/wh_01JD8Z7A2C4E6G8J0K2M4P6R8T .*never/);
  });
});
