/**
 * Bounce categories (docs/deliverability.md, "Bounce categories") end to end: bounces of every category from
 * the local SES's simulator addresses and a domain that does not exist, through SNS, SQS and the ses-events worker, to `bounce_category` in GET /emails/{id}
 * and in email.bounced; and the account's `suppress_bounce_categories` deciding which bounced addresses are
 * suppressed.
 */
import { LOCAL_EVENTS_DOMAIN } from '#localstack/emulators/ses/simulator';
import { BOUNCE_CATEGORIES, type BounceCategory } from '#shared/domain/bounces/bounce-category';
import { verifiedDomain } from './harness/domains';
import { api, newAccount, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { webhookInbox, type ReceivedWebhook } from './harness/webhook-inbox';
import { createTenant } from './harness/tenants';
import { dashboardRequest, newDashboardUser, signIn } from './harness/dashboard';

jest.setTimeout(180_000);

const local = (part: string) => `${part}@${LOCAL_EVENTS_DOMAIN}`;

interface Sender {
  account: TestAccount;
  from: string;
  received: () => Promise<ReceivedWebhook[]>;
}

async function sender(): Promise<Sender> {
  const account = await newAccount({ plan: 'scale', paymentMethod: true });
  const from = `hello@${(await verifiedDomain(account)).name}`;
  return { account, from, received: await webhookInbox(account, ['email.bounced', 'email.delivery_delayed']) };
}

async function send({ account, from }: Sender, to: string): Promise<string> {
  const sent = await api('POST', '/emails', { key: account.key, body: { from, to: [to], subject: 'categories', text: 't' } });
  expect(sent.status).toBe(200);
  return sent.body.id;
}

async function webhookOf({ received }: Sender, id: string, type: string): Promise<ReceivedWebhook> {
  let found: ReceivedWebhook | undefined;
  await waitFor(
    async () => {
      found = (await received()).find((event) => event.data.email_id === id && event.type === type);
      return found !== undefined;
    },
    `${type} of ${id}`,
    60_000,
  );
  return found!;
}

async function suppressed({ account }: Sender, address: string): Promise<boolean> {
  return (await api('GET', `/suppressions?email=${encodeURIComponent(address)}`, { key: account.key })).body.suppressions.length > 0;
}

describe('bounce categories through the local SES', () => {
  let defaults: Sender;

  beforeAll(async () => {
    defaults = await sender();
  });

  /** One recipient of the local SES per category (docs/local-cloud/ses.md, "Events"), and whether its bounce suppresses by default. */
  const everyCategory: [string, BounceCategory, boolean][] = [
    ['bounce@simulator.amazonses.com', 'invalid_address', true],
    [local('mailboxfull'), 'mailbox_full', false],
    [local('inactive'), 'mailbox_inactive', true],
    ['ann@nowhere.invalid', 'domain_invalid', true],
    [local('blocked'), 'blocked_reputation', false],
    [local('contentrejected'), 'blocked_content', false],
    [local('ratelimited'), 'rate_limited', false],
    [local('transient'), 'technical', false],
    [local('undetermined'), 'unclassified', false],
  ];

  it('the table below reaches every category once', () => {
    expect(everyCategory.map(([, category]) => category)).toEqual([...BOUNCE_CATEGORIES]);
  });

  it.each(everyCategory)(
    '%s bounces as %s in the email and in email.bounced; suppressed by default: %s',
    async (to, category, suppresses) => {
      const id = await send(defaults, to);
      const email = await waitForStatus(defaults.account, id, 'bounced');
      expect(email.bounce_category).toBe(category);
      expect((await webhookOf(defaults, id, 'email.bounced')).data).toMatchObject({ bounce_category: category });
      expect(await suppressed(defaults, to)).toBe(suppresses);
    },
  );

  it('a DeliveryDelay says its category and delay type in email.delivery_delayed', async () => {
    const id = await send(defaults, local('delay+mailboxfull'));
    expect((await webhookOf(defaults, id, 'email.delivery_delayed')).data).toMatchObject({
      bounce_category: 'mailbox_full',
      delay_type: 'MailboxFull',
    });
  });

  it("the account's suppress_bounce_categories decides: without invalid_address a hard bounce stays unsuppressed, with mailbox_full a full mailbox is suppressed", async () => {
    const chosen = await sender();
    const before = await api('GET', '/account', { key: chosen.account.key });
    expect(before.body.suppress_bounce_categories).toEqual(['invalid_address', 'mailbox_inactive', 'domain_invalid']);
    const changed = await api('PATCH', '/account', { key: chosen.account.key, body: { suppress_bounce_categories: ['mailbox_full'] } });
    expect(changed.status).toBe(200);
    expect(changed.body.suppress_bounce_categories).toEqual(['mailbox_full']);

    const hard = await send(chosen, 'bounce+chosen@simulator.amazonses.com');
    expect((await waitForStatus(chosen.account, hard, 'bounced')).bounce_category).toBe('invalid_address');
    const full = await send(chosen, local('mailboxfull+chosen'));
    expect((await waitForStatus(chosen.account, full, 'bounced')).bounce_category).toBe('mailbox_full');
    // email.bounced is published after the suppression list is written.
    await webhookOf(chosen, hard, 'email.bounced');
    await webhookOf(chosen, full, 'email.bounced');
    expect(await suppressed(chosen, local('mailboxfull+chosen'))).toBe(true);
    expect(await suppressed(chosen, 'bounce+chosen@simulator.amazonses.com')).toBe(false);
  });

  it('PATCH /account refuses an unknown category', async () => {
    const refused = await api('PATCH', '/account', { key: defaults.account.key, body: { suppress_bounce_categories: ['bogus'] } });
    expect(refused.status).toBe(400);
  });

  it("counts a tenant's bounces by category in its stats (GET /tenants/{tenant}/stats: bounce_categories)", async () => {
    const account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const from = `hello@${(await verifiedDomain(account)).name}`;
    const tenant = await createTenant(account);
    const ids = await Promise.all(
      everyCategory.map(async ([to]) => {
        const sent = await api('POST', '/emails', {
          key: account.key,
          body: { from, to: [to], subject: 'categories', text: 't', tenant: tenant.external_id },
        });
        expect(sent.status).toBe(200);
        return sent.body.id as string;
      }),
    );
    for (const id of ids) await waitForStatus(account, id, 'bounced');
    const stats = await waitFor(async () => {
      const answer = await api('GET', `/tenants/${tenant.external_id}/stats`, { key: account.key });
      return answer.body.stats.bounced === everyCategory.length && answer.body.stats;
    }, 'the bounces counted in the tenant stats');
    expect(stats.bounce_categories).toEqual(Object.fromEntries(BOUNCE_CATEGORIES.map((category) => [category, 1])));
    // The dashboard's tenants page lists them by category.
    const session = await signIn((await newDashboardUser(account)).email);
    const page = await dashboardRequest('GET', '/dashboard/tenants', { cookie: session.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<th scope="col">Bounces by category</th>');
    for (const label of ['Invalid address 1', 'Blocked for reputation 1', 'Blocked for content 1', 'Unclassified 1'])
      expect(page.text).toContain(label);

    // The account's own stats count them too (its tenants' part said), in all and on today's entry.
    const account30 = await waitFor(async () => {
      const answer = await api('GET', '/account/stats', { key: account.key });
      return answer.status === 200 && answer.body.bounced === everyCategory.length && answer.body;
    }, 'the bounces counted in the account stats');
    expect(account30).toMatchObject({
      object: 'account_stats',
      days: 30,
      sent: everyCategory.length,
      bounce_rate: 1,
      tenants: { sent: everyCategory.length, bounced: everyCategory.length },
    });
    expect(account30.bounce_categories).toEqual(Object.fromEntries(BOUNCE_CATEGORIES.map((category) => [category, 1])));
    expect(account30.daily).toHaveLength(30);
    expect(account30.daily[29].bounce_categories).toEqual(account30.bounce_categories);
    expect((await api('GET', '/account/stats?days=1', { key: account.key })).body).toMatchObject({
      days: 1,
      bounced: everyCategory.length,
    });
    expect((await api('GET', '/account/stats?days=91', { key: account.key })).status).toBe(400);
    // A key limited to the tenant sees its tenant's stats, not the account's.
    const tenantKey = await api('POST', '/api-keys', {
      key: account.key,
      body: { name: 'tenant key', scopes: ['full'], tenant: tenant.external_id },
    });
    expect(tenantKey.status).toBe(201);
    const refused = await api('GET', '/account/stats', { key: tenantKey.body.secret });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'forbidden']);
    // The dashboard's domains page shows the account's sending with the bounces by category.
    const domains = await dashboardRequest('GET', '/dashboard/domains', { cookie: session.cookie });
    expect(domains.text).toContain('Sending, last 30 days');
    expect(domains.text).toContain(`${everyCategory.length} bounced (100.00%)`);
    for (const label of ['Invalid address', 'Mailbox full', 'Rate limited'])
      expect(domains.text).toContain(`<th scope="row">${label}</th>`);
  });

  it('an account that sent nothing answers zeros, one entry per day', async () => {
    const quiet = await newAccount();
    const stats = await api('GET', '/account/stats?days=7', { key: quiet.key });
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({
      object: 'account_stats',
      days: 7,
      sent: 0,
      bounced: 0,
      complained: 0,
      bounce_rate: 0,
      complaint_rate: 0,
    });
    expect(stats.body.daily.map((day: { sent: number }) => day.sent)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});
