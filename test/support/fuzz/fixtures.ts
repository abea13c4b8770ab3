/**
 * What the fuzzer works on: a fresh account on plan scale with tenants (so every operation is reachable)
 * holding one of each thing an operation names by id (a verified domain, a tenant with a domain of its
 * own, a webhook with a delivery, a sent and a scheduled email, a published template, an automation with
 * a run, an upload, a key, an SMTP credential, a suppression, a received email, an import, stored DNS
 * host credentials), and a second account whose ids must be unknown to the first.
 */
import { randomUUID } from 'node:crypto';
import { verifiedDomain } from '../../integration/harness/domains';
import { providerKey, seedProvider } from '../../integration/harness/imports';
import { mxTransport, receivedIds, receivingDomain, waitForReceived } from '../../integration/harness/inbound';
import { api, newAccount, stack, waitFor, type TestAccount } from '../../integration/harness/stack';
import { createTenant } from '../../integration/harness/tenants';

export interface FuzzFixtures {
  account: TestAccount;
  /** The value of each path parameter that names an existing thing, by `{operation path}:{param}` or `{param}`. */
  pathValues: Record<string, string>;
  /** Strings of the examples replaced by the fixtures' (the example domain by the verified domain, ...). */
  substitutions: [string, string][];
  /** Ids of the other account: never visible to `account`. */
  foreignIds: string[];
}

async function ok<T = any>(what: string, call: Promise<{ status: number; body: T; text: string }>): Promise<T> {
  const response = await call;
  if (response.status >= 300) throw new Error(`fuzz fixture: ${what} answered ${response.status}: ${response.text.slice(0, 500)}`);
  return response.body;
}

export async function createFixtures(): Promise<FuzzFixtures> {
  const [account, other] = await Promise.all([newAccount({ plan: 'scale', tenants: true, paymentMethod: true }), newAccount()]);
  const key = account.key;
  const post = (path: string, body: unknown, as: string = key) => api('POST', path, { key: as, body });
  const inbox = (name: string) => `${stack().info.webhook_inbox_url}fuzz-${name}-${randomUUID().slice(0, 8)}`;

  const [domain, tenantDomain, tenant, receiving] = await Promise.all([
    verifiedDomain(account),
    verifiedDomain(account),
    createTenant(account, {}, 'fuzz'),
    receivingDomain(account),
  ]);
  const [webhook, foreignWebhook] = await Promise.all([
    ok('POST /webhooks', post('/webhooks', { url: inbox('a'), events: ['email.sent', 'email.delivered'] })),
    ok('POST /webhooks (other account)', post('/webhooks', { url: inbox('b') }, other.key)),
  ]);
  const from = `Fuzz <fuzz@${domain.name}>`;
  const later = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
  const [sent, scheduled, upload, apiKey, smtp] = await Promise.all([
    ok('POST /emails', post('/emails', { from, to: 'fuzz-fixture@example.com', subject: 'fuzz fixture', text: 'hello' })),
    ok(
      'POST /emails (scheduled)',
      post('/emails', { from, to: 'fuzz-fixture@example.com', subject: 'fuzz scheduled', text: 'later', scheduled_at: later }),
    ),
    ok('POST /attachments', post('/attachments', { filename: 'report.pdf', content_type: 'application/pdf', size: 1000 })),
    ok('POST /api-keys', post('/api-keys', { name: 'fuzz spare', scopes: ['emails:send'] })),
    ok('POST /smtp-credentials', post('/smtp-credentials', { name: 'fuzz' })),
    ok('POST /tenants/{tenant}/domains', post(`/tenants/${tenant.external_id}/domains`, { domain: tenantDomain.name })),
    ok('POST /suppressions', post('/suppressions', { emails: ['bounced@example.com'] })),
    ok(
      'PUT /dns-providers/cloudflare',
      api('PUT', '/dns-providers/cloudflare', { key, body: { credentials: { api_token: 'cf-token-fuzz' } } }),
    ),
  ]);
  await ok(
    'POST /templates',
    post('/templates', {
      name: 'Welcome',
      alias: 'welcome',
      subject: 'Welcome, {{first_name}}',
      html: '<p>Hi {{first_name}}</p>',
      from,
      variables: [{ key: 'first_name', type: 'string', fallback_value: 'there' }],
    }),
  );
  await ok('POST /templates/welcome/publish', post('/templates/welcome/publish', undefined));
  const automation = await ok(
    'POST /automations',
    post('/automations', {
      name: 'fuzz',
      status: 'active',
      trigger: { event: 'user.signed_up' },
      steps: [{ key: 'wait', type: 'delay', duration: '3 days' }],
    }),
  );
  const automationId: string = automation.automation.id;
  await ok('POST /events', post('/events', { name: 'user.signed_up', user_id: 'fuzz-user', email: 'ada@example.com' }));
  await ok('POST /emails/test', post('/emails/test', { event: 'email.delivered', email_id: sent.id }));

  const sendgridKey = providerKey('SG.');
  await seedProvider({ provider: 'sendgrid', api_key: sendgridKey, data: {} } as Parameters<typeof seedProvider>[0]);
  const migration = await ok(
    'POST /migrations',
    post('/migrations', { provider: 'sendgrid', api_key: sendgridKey, resources: ['suppressions'], dry_run: true }),
  );

  const info = await mxTransport().sendMail({
    from: 'someone@sender.example-mail.test',
    to: receiving.address('fuzz'),
    subject: 'fuzz inbound',
    text: 'hi',
  });
  const [receivedId] = receivedIds(info.response);
  await waitForReceived(account, receivedId!, 60_000);

  const delivery = await waitFor(
    async () => (await api('GET', `/webhooks/${webhook.webhook.id}/deliveries`, { key })).body?.deliveries?.[0],
    'a webhook delivery',
    60_000,
  );
  const run = await waitFor(
    async () => (await api('GET', `/automations/${automationId}/runs`, { key })).body?.runs?.[0],
    'an automation run',
    60_000,
  );

  return {
    account,
    pathValues: {
      '/emails/{id}:id': scheduled.id,
      '/emails/{id}/resend:id': sent.id,
      '/attachments/{id}:id': upload.attachment?.id ?? upload.upload?.id,
      '/api-keys/{id}:id': apiKey.api_key.id,
      '/smtp-credentials/{id}:id': smtp.smtp_credential.id,
      '/received-emails/{id}:id': receivedId!,
      '/migrations/{id}:id': migration.migration.id,
      '/tenants/{tenant}/domains/{domain}:domain': tenantDomain.name,
      domains: domain.id,
      provider: 'cloudflare',
      tenant: tenant.external_id,
      deliveryId: delivery.id,
      run_id: run.id,
      alias: 'welcome',
      webhooks: webhook.webhook.id,
      automations: automationId,
    },
    substitutions: [
      ['https://acme.com/webhooks/mail', inbox('c')],
      ['customer42.com', tenantDomain.name],
      ['acme.com', domain.name],
      ['SG.xxxxx', sendgridKey],
      ['msg_01JD8Z6Q0R5M3W2K9X7V4T1B8N', sent.id],
    ],
    foreignIds: [foreignWebhook.webhook.id, other.id],
  };
}

/** The existing thing a path parameter of `path` names (`{id}` by the path's first segment). */
export function pathValue(fixtures: FuzzFixtures, path: string, param: string): string | undefined {
  const exact = fixtures.pathValues[`${path}:${param}`];
  if (exact) return exact;
  if (param === 'id') return fixtures.pathValues[path.split('/')[1]!] || fixtures.pathValues[`/${path.split('/')[1]}/{id}:id`];
  return fixtures.pathValues[param];
}

/** An example body with the fixtures' names and ids in place of the document's. */
export function adaptExample(fixtures: FuzzFixtures, example: unknown): unknown {
  let text = JSON.stringify(example ?? {});
  for (const [from, to] of fixtures.substitutions) text = text.split(from).join(to);
  return JSON.parse(text);
}
