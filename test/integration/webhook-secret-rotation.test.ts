/**
 * Rotating a webhook endpoint's signing secret (docs/webhooks.md, "Rotating the secret"): a receiver that
 * switches from the old secret to the new one during the overlap loses no event; during the overlap each
 * delivery verifies with either secret (the unmodified standardwebhooks library and a Stripe-style verifier of
 * Service-Signature); after the previous secret is stopped (or with an overlap of 0) only the new one verifies.
 * Also: the endpoint shows when it was rotated and until when the previous secret signs, bounds (400), another
 * account's endpoint (404), rotations racing (200 or 409, never a lost secret), and the audit log.
 */
import { Webhook } from 'standardwebhooks';
import { verifyServiceSignature } from '#shared/domain/webhooks/signing';
import { startHttpsReceiver, type HttpsReceiver, type ReceivedRequest } from '../support/https-receiver';
import { DEFAULT_WAIT_MS } from '../support/wait';
import { api, newAccount, type TestAccount } from './harness/stack';

const SANDBOX = 'sandbox.mailservice.dev';
const certs = () => ({ certFile: process.env.TEST_WEBHOOK_CERT_FILE!, keyFile: process.env.TEST_WEBHOOK_KEY_FILE! });

/** Whether `secret` verifies the delivery, both ways a receiver checks: Standard Webhooks' library, and Service-Signature (Stripe-style). */
function verifies(secret: string, request: ReceivedRequest): boolean {
  const standard = (() => {
    try {
      new Webhook(secret).verify(request.body, {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      });
      return true;
    } catch {
      return false;
    }
  })();
  const service = verifyServiceSignature({
    secret,
    header: String(request.headers['service-signature']),
    body: request.body,
    now: new Date(),
  });
  // Both schemes agree on every delivery: a receiver may use either.
  expect(service.ok).toBe(standard);
  return standard;
}

const signatures = (request: ReceivedRequest) => String(request.headers['webhook-signature']).split(' ').length;

describe('webhook secret rotation', () => {
  let account: TestAccount;
  let hook: HttpsReceiver;
  let webhookId: string;
  let original: string;

  beforeAll(async () => {
    account = await newAccount();
    hook = await startHttpsReceiver(certs());
    const created = await api('POST', '/webhooks', { key: account.key, body: { url: hook.url, events: ['email.sent'] } });
    expect(created.status).toBe(200);
    webhookId = created.body.webhook.id;
    original = created.body.secret;
    expect(created.body.webhook).toMatchObject({ secret_rotated_at: null, previous_secret_expires_at: null });
  });
  afterAll(() => hook.close());

  /** Sends one email and answers its email.sent delivery, as the receiver got it. */
  async function nextDelivery(): Promise<ReceivedRequest> {
    const before = hook.requests.length;
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${SANDBOX}`, to: account.email, subject: 'rotation', text: 't' },
    });
    expect(sent.status).toBe(200);
    const requests = await hook.waitForRequests(before + 1, DEFAULT_WAIT_MS);
    const request = requests.find((one) => JSON.parse(one.body).data.email_id === sent.body.id);
    expect(request).toBeDefined();
    return request!;
  }

  it('lets a receiver switch secrets during the overlap with no event lost, then signs with the new one only', async () => {
    // The receiver holds the original secret.
    const first = await nextDelivery();
    expect(signatures(first)).toBe(1);
    expect(verifies(original, first)).toBe(true);

    const rotated = await api('POST', `/webhooks/${webhookId}/secret`, { key: account.key, body: { overlap_seconds: 3600 } });
    expect(rotated.status).toBe(200);
    const next: string = rotated.body.secret;
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(original);
    const expires = Date.parse(rotated.body.webhook.previous_secret_expires_at);
    expect(expires - Date.parse(rotated.body.webhook.secret_rotated_at)).toBe(3600 * 1000);

    // During the overlap: a receiver not yet deployed (the original) and one already switched (the new) both verify.
    const during = await nextDelivery();
    expect(signatures(during)).toBe(2);
    expect(verifies(original, during)).toBe(true);
    expect(verifies(next, during)).toBe(true);
    expect(verifies(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, during)).toBe(false);

    // Every receiver switched: the previous secret stops now.
    const stopped = await api('DELETE', `/webhooks/${webhookId}/secret/previous`, { key: account.key });
    expect(stopped.status).toBe(200);
    expect(stopped.body.webhook.previous_secret_expires_at).toBeNull();
    expect(stopped.body.webhook.secret_rotated_at).toBe(rotated.body.webhook.secret_rotated_at);
    const after = await nextDelivery();
    expect(signatures(after)).toBe(1);
    expect(verifies(next, after)).toBe(true);
    expect(verifies(original, after)).toBe(false);

    // The endpoint says so, and stopping again is not an error.
    const read = await api('GET', `/webhooks/${webhookId}`, { key: account.key });
    expect(read.body.webhook).toMatchObject({
      secret_rotated_at: rotated.body.webhook.secret_rotated_at,
      previous_secret_expires_at: null,
    });
    expect((await api('DELETE', `/webhooks/${webhookId}/secret/previous`, { key: account.key })).status).toBe(200);

    // An overlap of 0: the new secret alone at once; no body is the default overlap (a day).
    const atOnce = await api('POST', `/webhooks/${webhookId}/secret`, { key: account.key, body: { overlap_seconds: 0 } });
    expect(atOnce.status).toBe(200);
    expect(atOnce.body.webhook.previous_secret_expires_at).toBeNull();
    const alone = await nextDelivery();
    expect(signatures(alone)).toBe(1);
    expect(verifies(atOnce.body.secret, alone)).toBe(true);
    expect(verifies(next, alone)).toBe(false);
    const byDefault = await api('POST', `/webhooks/${webhookId}/secret`, { key: account.key });
    expect(byDefault.status).toBe(200);
    expect(Date.parse(byDefault.body.webhook.previous_secret_expires_at) - Date.parse(byDefault.body.webhook.secret_rotated_at)).toBe(
      86_400 * 1000,
    );
    const both = await nextDelivery();
    expect(verifies(byDefault.body.secret, both)).toBe(true);
    expect(verifies(atOnce.body.secret, both)).toBe(true);

    // The audit log names each rotation and the stop, never a secret.
    const audit = await api('GET', '/audit-log?limit=100', { key: account.key });
    const records = audit.body.audit_records as { action: string; resource_ids: Record<string, string> }[];
    const ofThis = (action: string) => records.filter((record) => record.action === action && record.resource_ids.id === webhookId);
    expect(ofThis('rotateWebhookSecret')).toHaveLength(3);
    expect(ofThis('expirePreviousWebhookSecret')).toHaveLength(2);
    const text = JSON.stringify(records);
    for (const secret of [original, next, atOnce.body.secret, byDefault.body.secret]) expect(text).not.toContain(secret);
  });

  it('answers 200 or 409 to rotations racing, and the secret before each winner keeps signing through its overlap', async () => {
    const before = (await api('POST', `/webhooks/${webhookId}/secret`, { key: account.key, body: { overlap_seconds: 0 } })).body
      .secret as string;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => api('POST', `/webhooks/${webhookId}/secret`, { key: account.key, body: { overlap_seconds: 600 } })),
    );
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    const winners = answers.filter((answer) => answer.status === 200).map((answer) => answer.body.secret as string);
    expect(winners.length).toBeGreaterThanOrEqual(1);
    for (const refused of answers.filter((answer) => answer.status === 409)) expect(refused.body.error.code).toBe('conflict');
    // The last winner signs, beside the secret it replaced: the one before the race or another winner.
    const delivery = await nextDelivery();
    expect(signatures(delivery)).toBe(2);
    const current = winners.filter((secret) => verifies(secret, delivery));
    const previous = [before, ...winners].filter((secret) => verifies(secret, delivery));
    expect(current.length).toBeGreaterThanOrEqual(1);
    expect(previous.length).toBe(2);
  });

  it("refuses an overlap past 7 days or not whole seconds (400), and another account's endpoint (404)", async () => {
    for (const overlap_seconds of [7 * 86_400 + 1, -1, 1.5, '3600']) {
      const answer = await api('POST', `/webhooks/${webhookId}/secret`, { key: account.key, body: { overlap_seconds } });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('validation_error');
    }
    const other = await newAccount();
    expect((await api('POST', `/webhooks/${webhookId}/secret`, { key: other.key })).status).toBe(404);
    expect((await api('DELETE', `/webhooks/${webhookId}/secret/previous`, { key: other.key })).status).toBe(404);
  });
});
