/**
 * Emails carry their tenant against the local cloud: GET /emails?tenant= (the sparse tenant index),
 * GET /emails/{id}, what a tenant-limited key sees, tenant null once the tenant is deleted, webhooks
 * routed by tenant filter with data.tenant, and bounces and complaints of tenant email on the tenant's list.
 */
import { api, emailOf, newAccount, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { unique, createTenant } from './harness/tenants';
import { inboxRequests } from './harness/webhook-inbox';

const SANDBOX = 'sandbox.mailservice.dev';

async function sendAs(account: TestAccount, tenant?: string, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await api('POST', '/emails', {
    key: account.key,
    body: { from: `a@${SANDBOX}`, to: account.email, subject: 's', text: 't', ...(tenant ? { tenant } : {}), ...extra },
  });
  expect(response.status).toBe(200);
  return response.body.id;
}

/** GET /emails, waiting out the listing's rate limit (10 a second per account: this file lists a lot). */
async function getEmails(key: string, query: string): Promise<any> {
  for (;;) {
    const response = await api('GET', `/emails?${query}`, { key });
    if (response.status !== 429) return response;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Every page of GET /emails with `query`, as ids; waits for `expected` (the index is eventually consistent). */
async function listed(key: string, query: string, expected: string[]): Promise<string[]> {
  return waitFor(
    async () => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page: any = await getEmails(key, `limit=2${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(page.status).toBe(200);
        ids.push(...page.body.emails.map((e: { id: string }) => e.id));
        cursor = page.body.next_cursor;
      } while (cursor);
      return expected.every((id) => ids.includes(id)) ? ids : undefined;
    },
    `listing ${query}`,
    15_000,
    250,
  );
}

describe('tenant emails', () => {
  let account: TestAccount;
  let acme: { id: string; external_id: string };
  let globex: { id: string; external_id: string };
  const acmeIds: string[] = [];
  const globexIds: string[] = [];
  let accountWide: string;

  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    acme = await createTenant(account);
    globex = await createTenant(account);
    for (let i = 0; i < 3; i++) acmeIds.push(await sendAs(account, acme.external_id));
    globexIds.push(await sendAs(account, globex.id));
    accountWide = await sendAs(account);
  });

  it("GET /emails?tenant= lists only that tenant's emails, newest first, across pages; the account listing has them all", async () => {
    const byExternal = await listed(account.key, `&tenant=${acme.external_id}`, acmeIds);
    expect(byExternal).toEqual([...acmeIds].sort().reverse());
    expect(await listed(account.key, `&tenant=${acme.id}`, acmeIds)).toEqual([...acmeIds].sort().reverse());
    expect(await listed(account.key, `&tenant=${globex.external_id}`, globexIds)).toEqual(globexIds);
    const all = await listed(account.key, '', [...acmeIds, ...globexIds, accountWide]);
    expect(all).toHaveLength(5);
    const page = await getEmails(account.key, `tenant=${acme.external_id}&limit=10`);
    expect(page.body.emails.every((e: { tenant: string }) => e.tenant === acme.external_id)).toBe(true);
    expect((await getEmails(account.key, 'tenant=nobody')).status).toBe(404);
    // A cursor of one tenant's listing is refused for another's.
    const first = await getEmails(account.key, `tenant=${acme.external_id}&limit=1`);
    const crossed = await getEmails(account.key, `tenant=${globex.external_id}&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(crossed.status).toBe(400);
  });

  it('GET /emails/{id} shows the tenant external_id, null for account-wide email', async () => {
    expect((await emailOf(account, acmeIds[0]!)).tenant).toBe(acme.external_id);
    expect((await emailOf(account, globexIds[0]!)).tenant).toBe(globex.external_id);
    expect((await emailOf(account, accountWide)).tenant).toBeNull();
  });

  it("a key limited to a tenant sees only its tenant's emails (404 for others, 403 naming another tenant)", async () => {
    const key = (
      await api('POST', '/api-keys', { key: account.key, body: { name: 'acme only', scopes: ['full'], tenant: acme.external_id } })
    ).body.secret;
    expect(await listed(key, '', acmeIds)).toEqual([...acmeIds].sort().reverse());
    expect(await listed(key, `&tenant=${acme.external_id}`, acmeIds)).toEqual([...acmeIds].sort().reverse());
    expect((await getEmails(key, `tenant=${globex.external_id}`)).status).toBe(403);
    expect((await api('GET', `/emails/${acmeIds[0]}`, { key })).body.email.tenant).toBe(acme.external_id);
    for (const id of [globexIds[0], accountWide]) {
      expect((await api('GET', `/emails/${id}`, { key })).status).toBe(404);
      expect((await api('POST', `/emails/${id}/resend`, { key })).status).toBe(404);
    }
    // Another account sees none of them.
    const other = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    expect((await api('GET', `/emails/${acmeIds[0]}`, { key: other.key })).status).toBe(404);
    expect((await getEmails(other.key, `tenant=${acme.id}`)).status).toBe(404);
  });

  it('shows tenant null once the tenant is deleted, in GET /emails and GET /emails/{id}', async () => {
    const doomed = await createTenant(account);
    const id = await sendAs(account, doomed.external_id);
    expect((await emailOf(account, id)).tenant).toBe(doomed.external_id);
    expect((await api('DELETE', `/tenants/${doomed.external_id}`, { key: account.key })).status).toBe(200);
    expect((await emailOf(account, id)).tenant).toBeNull();
    const page = await waitFor(async () => {
      const body = (await api('GET', '/emails?limit=100', { key: account.key })).body;
      return body.emails.find((e: { id: string }) => e.id === id);
    }, 'the email in the listing');
    expect(page.tenant).toBeNull();
    // Others keep theirs.
    expect((await emailOf(account, acmeIds[0]!)).tenant).toBe(acme.external_id);
  });

  it('routes email webhooks by tenant filter, with data.tenant', async () => {
    const inbox = stack().info.webhook_inbox_url!;
    const paths = { acme: unique('acme-hook'), globex: unique('globex-hook'), all: unique('all-hook') };
    for (const [name, tenants] of [
      ['acme', [acme.external_id]],
      ['globex', [globex.id]],
      ['all', undefined],
    ] as const) {
      const created = await api('POST', '/webhooks', {
        key: account.key,
        body: { url: `${inbox}${paths[name]}`, events: ['email.delivered'], ...(tenants ? { tenants } : {}) },
      });
      expect(created.status).toBe(200);
    }
    const acmeEmail = await sendAs(account, acme.external_id);
    const globexEmail = await sendAs(account, globex.external_id);
    const plainEmail = await sendAs(account);
    const bodiesAt = async (path: string) => (await inboxRequests(path)).map((r) => JSON.parse(r.body));
    const all = await waitFor(async () => {
      const bodies = await bodiesAt(paths.all);
      return [acmeEmail, globexEmail, plainEmail].every((id) => bodies.some((b) => b.data.email_id === id)) ? bodies : undefined;
    }, 'the three deliveries at the unfiltered endpoint');
    expect(all.find((b) => b.data.email_id === acmeEmail).data.tenant).toBe(acme.external_id);
    expect(all.find((b) => b.data.email_id === globexEmail).data.tenant).toBe(globex.external_id);
    expect(all.find((b) => b.data.email_id === plainEmail).data.tenant).toBeUndefined();
    // The filtered endpoints got their tenant's email only (routing is done once all three were routed).
    const acmeBodies = await waitFor(async () => ((await bodiesAt(paths.acme)).length ? bodiesAt(paths.acme) : undefined), 'acme delivery');
    const globexBodies = await waitFor(
      async () => ((await bodiesAt(paths.globex)).length ? bodiesAt(paths.globex) : undefined),
      'globex delivery',
    );
    expect(acmeBodies.map((b) => b.data.email_id)).toEqual([acmeEmail]);
    expect(globexBodies.map((b) => b.data.email_id)).toEqual([globexEmail]);
    expect(acmeBodies[0]).toMatchObject({ type: 'email.delivered', data: { tenant: acme.external_id, status: 'delivered' } });
  });

  it("puts a bounced address of tenant email on the tenant's suppression list, not the account's", async () => {
    const bouncer = await newAccount({
      email: `bounce+${Date.now()}@simulator.amazonses.com`,
      plan: 'scale',
      paymentMethod: true,
      tenants: true,
    });
    const tenant = await createTenant(bouncer);
    const id = await sendAs(bouncer, tenant.external_id);
    expect(await waitForStatus(bouncer, id, 'bounced')).toMatchObject({ tenant: tenant.external_id, bounce_type: 'hard' });
    const onTenant = await waitFor(async () => {
      const list = await api('GET', `/suppressions?tenant=${tenant.external_id}&email=${encodeURIComponent(bouncer.email)}`, {
        key: bouncer.key,
      });
      return list.body.suppressions?.length ? list.body.suppressions : undefined;
    }, 'the tenant suppression');
    expect(onTenant[0]).toMatchObject({ reason: 'bounce', scope: 'tenant', tenant: tenant.external_id });
    const onAccount = await api('GET', `/suppressions?email=${encodeURIComponent(bouncer.email)}`, { key: bouncer.key });
    expect(onAccount.body.suppressions).toEqual([]);
    // The tenant's next send to it is refused; an account-wide send is not.
    expect(
      (
        await api('POST', '/emails', {
          key: bouncer.key,
          body: { from: `a@${SANDBOX}`, to: bouncer.email, subject: 's', text: 't', tenant: tenant.external_id },
        })
      ).status,
    ).toBe(422);
    expect(
      (await api('POST', '/emails', { key: bouncer.key, body: { from: `a@${SANDBOX}`, to: bouncer.email, subject: 's', text: 't' } }))
        .status,
    ).toBe(200);
  });

  it("puts a complaining address of tenant email on the tenant's suppression list, not the account's nor another tenant's", async () => {
    // The SES emulator's complaint simulator: delivered, then a Complaint.
    const complainer = await newAccount({
      email: `complaint+${Date.now()}@simulator.amazonses.com`,
      plan: 'scale',
      paymentMethod: true,
      tenants: true,
    });
    const tenant = await createTenant(complainer);
    const sibling = await createTenant(complainer);
    const id = await sendAs(complainer, tenant.id);
    const email = await waitFor(
      async () => {
        const current = await emailOf(complainer, id);
        return current.last_event === 'complained' && current.status === 'delivered' ? current : undefined;
      },
      'delivery and complaint',
      60_000,
    );
    expect(email.tenant).toBe(tenant.external_id);
    const onTenant = await waitFor(async () => {
      const list = await api('GET', `/suppressions?tenant=${tenant.id}&email=${encodeURIComponent(complainer.email)}`, {
        key: complainer.key,
      });
      return list.body.suppressions?.length ? list.body.suppressions : undefined;
    }, 'the tenant suppression');
    expect(onTenant[0]).toMatchObject({ reason: 'complaint', scope: 'tenant', tenant: tenant.external_id });
    expect(
      (await api('GET', `/suppressions?email=${encodeURIComponent(complainer.email)}`, { key: complainer.key })).body.suppressions,
    ).toEqual([]);
    expect(
      (
        await api('GET', `/suppressions?tenant=${sibling.external_id}&email=${encodeURIComponent(complainer.email)}`, {
          key: complainer.key,
        })
      ).body.suppressions,
    ).toEqual([]);
    const again = await api('POST', '/emails', {
      key: complainer.key,
      body: { from: `a@${SANDBOX}`, to: complainer.email, subject: 's', text: 't', tenant: tenant.external_id },
    });
    expect(again.status).toBe(422);
    expect(again.body.error.details.suppressed).toEqual([complainer.email]);
    expect(
      (
        await api('POST', '/emails', {
          key: complainer.key,
          body: { from: `a@${SANDBOX}`, to: complainer.email, subject: 's', text: 't', tenant: sibling.external_id },
        })
      ).status,
    ).toBe(200);
  });
});
