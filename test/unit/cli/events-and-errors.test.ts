/** `events tail`'s change detection (first sight, status moves, nothing new) and how API errors are printed (message, code, fields, hint; exit 1). */
import { deliveryChanges, describeChange, emailChanges, type EmailState } from '#clients/cli/events/changes';
import { fakeApi, run } from './harness';

const email = (id: string, status: string, last_event: string | null = status): EmailState => ({
  id,
  status,
  last_event,
  to: ['a@example.com'],
  subject: 'Hi',
  created_at: '2026-01-01T00:00:00Z',
});

describe('events tail', () => {
  it('reports every email on first sight, oldest first, then only the ones that moved', () => {
    const known = new Map();
    expect(emailChanges(known, [email('msg_2', 'queued'), email('msg_1', 'delivered')]).map(describeChange)).toEqual([
      'email msg_1 delivered  to a@example.com  "Hi"',
      'email msg_2 queued  to a@example.com  "Hi"',
    ]);
    expect(emailChanges(known, [email('msg_2', 'queued'), email('msg_1', 'delivered')])).toEqual([]);
    expect(emailChanges(known, [email('msg_2', 'delivered', 'complained'), email('msg_1', 'delivered')]).map(describeChange)).toEqual([
      'email msg_2 queued -> delivered (complained)  to a@example.com  "Hi"',
    ]);
  });

  it("reports a webhook delivery's new attempts and status", () => {
    const known = new Map();
    const delivery = { id: 'del_1', event_type: 'email.delivered', status: 'pending', attempts: [], created_at: '' };
    expect(deliveryChanges(known, [delivery]).map(describeChange)).toEqual(['delivery del_1 email.delivered pending  attempts 0']);
    expect(deliveryChanges(known, [{ ...delivery, status: 'succeeded', attempts: [{}] }]).map(describeChange)).toEqual([
      'delivery del_1 email.delivered pending -> succeeded  attempts 1',
    ]);
  });

  it('--once makes one pass over emails and the webhook deliveries, --json one line per change', async () => {
    const api = fakeApi([
      () => ({ body: { emails: [email('msg_1', 'sent')], has_more: false, next_cursor: null } }),
      () => ({
        body: {
          deliveries: [{ id: 'del_1', event_type: 'email.sent', status: 'succeeded', attempts: [{}], created_at: '' }],
          has_more: false,
          next_cursor: null,
        },
      }),
    ]);
    const result = await run(['--json', 'events', 'tail', '--once', '--webhook', 'wh_1', '--limit', '5'], { fetch: api.fetch });
    expect(result.status).toBe(0);
    expect(api.requests.map((r) => `${r.url.pathname}${r.url.search}`)).toEqual(['/emails?limit=5', '/webhooks/wh_1/deliveries?limit=5']);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { kind: 'email', previous_status: null, email: email('msg_1', 'sent') },
      { kind: 'delivery', previous_status: null, delivery: expect.objectContaining({ id: 'del_1', status: 'succeeded' }) },
    ]);
  });

  it('refuses a bad --limit as a usage error', async () => {
    const result = await run(['events', 'tail', '--limit', '0']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--limit must be a whole number from 1 to 100');
  });
});

describe('API errors', () => {
  it("print the API's message, code, status, each field and the hint, and exit 1", async () => {
    const api = fakeApi([
      () => ({
        status: 400,
        body: {
          error: {
            message: 'Invalid request',
            code: 'validation_error',
            details: { fields: [{ field: 'to', message: '"ann@" is not a valid email address' }] },
            hint: 'Fix the fields',
          },
        },
      }),
    ]);
    const result = await run(['send', '--from', 'a@x.dev', '--to', 'ann@', '--subject', 's', '--text', 't'], { fetch: api.fetch });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      'Error: Invalid request (validation_error, HTTP 400)\n  to: "ann@" is not a valid email address\nHint: Fix the fields\n',
    );
  });

  it('print the error envelope as JSON with --json', async () => {
    const body = { error: { message: 'Not found', code: 'not_found' } };
    const api = fakeApi([() => ({ status: 404, body })]);
    const result = await run(['--json', 'emails', 'get', 'msg_x'], { fetch: api.fetch });
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual(body);
  });
});
