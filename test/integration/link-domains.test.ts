/**
 * Link domains end to end on the local cloud (docs/tracking.md, "Link domains"): PUT /domains/{id}/link-domain,
 * the domain-health task requesting the certificate of `links.<domain>` from the local ACM (under the local IAM,
 * with the task's role from the template), its validation CNAME published, the custom domain name created and
 * mapped to the links API, the owner's CNAME making it active; then mail from the domain carries its pixel,
 * click and unsubscribe links under `https://links.<domain>`, and those links work over the custom domain (the
 * host found through DNS, its certificate checked for the name). DELETE, and the domain's deletion, take the
 * host's AWS resources down. The dashboard's domain page sets it up, shows it and stops it from its link domain section.
 */
import { simpleParser } from 'mailparser';
import { firstAttempt } from '#shared/domain/domains/hosting/host-hosting';
import type { StoredLinkDomain } from '#shared/domain/domains/link-domain/link-domain';
import { customDomainRequest, hostGone, hostingClients, resolveHost } from './harness/custom-domains';
import { dashboardRequest, newDashboardUser, signIn } from './harness/dashboard';
import { publish } from './harness/dns';
import { verifiedDomain, type VerifiedDomain } from './harness/domains';
import { api, newAccount, sesMessagesFor, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { waitWithTask } from './harness/tasks';

type LinkDomain = {
  host: string;
  status: string;
  base_url: string;
  records: { purpose: string; type: string; name: string; value: string; status: string }[];
};

const WAIT_MS = 40_000;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

const recordOf = (linkDomain: LinkDomain, purpose: string) => linkDomain.records.find((record) => record.purpose === purpose);

/** Waits for the link domain to satisfy `done`, asking for the domain-health task's passes (it takes the steps). */
function waitForLinkDomain(account: TestAccount, domainId: string, done: (linkDomain: LinkDomain) => boolean, what: string) {
  return waitWithTask(
    'domain-health',
    async () => {
      const response = await api('GET', `/domains/${domainId}/link-domain`, { key: account.key });
      return response.status === 200 && done(response.body) ? (response.body as LinkDomain) : undefined;
    },
    `${domainId}'s link domain ${what}`,
    WAIT_MS,
  );
}

let account: TestAccount;
let domain: VerifiedDomain;
let host: string;
const clients = hostingClients();

beforeAll(async () => {
  account = await newAccount({ plan: 'pro', paymentMethod: true });
  domain = await verifiedDomain(account, { open_tracking: true, click_tracking: true });
  host = `links.${domain.name}`;
});

afterAll(() => {
  clients.acm.destroy();
  clients.apigw.destroy();
});

describe('a link domain', () => {
  it(
    'is 404 until asked for; PUT stores it and the task requests its certificate, then serves it once issued',
    async () => {
      expect((await api('GET', `/domains/${domain.id}/link-domain`, { key: account.key })).status).toBe(404);
      const put = await api('PUT', `/domains/${domain.id}/link-domain`, { key: account.key });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({
        object: 'link_domain',
        domain_id: domain.id,
        host,
        base_url: `https://${host}`,
        status: 'pending_certificate',
      });
      const listed = await waitForLinkDomain(
        account,
        domain.id,
        (l) => recordOf(l, 'certificate_validation') !== undefined,
        'to list its validation record',
      );
      const validation = recordOf(listed, 'certificate_validation')!;
      expect(validation).toMatchObject({ type: 'CNAME', value: expect.stringMatching(/\.acm-validations\.aws$/), status: 'pending' });
      await publish(validation.name, 'CNAME', [validation.value]);
      // PUT again: the next step due now, not a minute later.
      expect((await api('PUT', `/domains/${domain.id}/link-domain`, { key: account.key })).status).toBe(200);

      const served = await waitForLinkDomain(account, domain.id, (l) => l.status === 'pending_dns', 'to be served');
      const cname = recordOf(served, 'link_host')!;
      expect(cname).toMatchObject({ type: 'CNAME', name: host, status: 'pending' });
      // The domain's own records list both CNAMEs after its own (not required to verify the domain).
      const listedOnDomain = (await api('GET', `/domains/${domain.id}`, { key: account.key })).body.domain.records;
      expect(listedOnDomain.slice(-2)).toEqual([
        expect.objectContaining({ purpose: 'link_certificate_validation', name: validation.name, required: false, status: 'verified' }),
        expect.objectContaining({
          purpose: 'link_host',
          type: 'CNAME',
          name: host,
          value: cname.value,
          required: false,
          status: 'pending',
        }),
      ]);
      // Served on its custom domain name already; the domain's mail does not use it until the owner's CNAME is found.
      expect((await customDomainRequest(host, '/t/open/not-a-token')).status).toBeLessThan(500);
      // Domain health reports it until it is active.
      const pendingHealth = await api('POST', `/domains/${domain.id}/health`, { key: account.key });
      expect(pendingHealth.body.summary.checks.link_domain).toBe('issues');
      expect(pendingHealth.body.findings.filter((f: { check: string }) => f.check === 'link_domain')).toEqual([
        expect.objectContaining({ type: 'link_domain_not_active', impact: 'low', status: 'open', message: expect.stringContaining(host) }),
      ]);
      await publish(host, 'CNAME', [cname.value]);
      expect((await api('PUT', `/domains/${domain.id}/link-domain`, { key: account.key })).status).toBe(200);
      const active = await waitForLinkDomain(account, domain.id, (l) => l.status === 'active', 'to be active');
      expect(recordOf(active, 'link_host')!.status).toBe('verified');
      // GET /domains lists it on the domain too.
      const page = (await api('GET', '/domains', { key: account.key })).body.domains as { id: string; records: LinkDomain['records'] }[];
      const onList = page.find((listed) => listed.id === domain.id)!.records.find((record) => record.purpose === 'link_host');
      expect(onList).toMatchObject({ name: host, value: cname.value, status: 'verified' });
      const activeHealth = await api('POST', `/domains/${domain.id}/health`, { key: account.key });
      expect(activeHealth.body.summary.checks.link_domain).toBe('ok');
      expect(
        activeHealth.body.findings.filter((f: { check: string; status: string }) => f.check === 'link_domain' && f.status === 'open'),
      ).toEqual([]);
    },
    3 * WAIT_MS,
  );

  it("the domain's mail links to https://links.<domain>: the pixel, clicks and unsubscribe, each working through its DNS name", async () => {
    const target = 'https://shop.example/offer?a=1&b=2';
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: `news@${domain.name}`,
        to: 'reader@example.org',
        subject: 'Linked',
        unsubscribe: true,
        category: 'product',
        html: '<html><body><p><a href="https://shop.example/offer?a=1&amp;b=2">Offer</a></p></body></html>',
      },
    });
    expect(sent.status).toBe(200);
    await waitForStatus(account, sent.body.id, 'delivered');
    const [message] = await sesMessagesFor(sent.body.id);
    const html = (await simpleParser(Buffer.from(message!.raw, 'utf8'))).html as string;
    const click = /href="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    const pixel = /<img[^>]+src="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    const unsubscribe = /^List-Unsubscribe: <([^>]+)>/m.exec(message!.raw.replace(/\r\n[ \t]+/g, ' '))![1]!;
    expect(click.startsWith(`https://${host}/t/click/`)).toBe(true);
    expect(pixel.startsWith(`https://${host}/t/open/`)).toBe(true);
    expect(unsubscribe.startsWith(`https://${host}/unsubscribe/`)).toBe(true);
    expect(html).not.toContain(stack().info.env.LINKS_BASE_URL!);

    // As a reader's client: the host resolved through DNS to the custom domain name's target, TLS for its name.
    const address = await resolveHost(host);
    const pathOf = (url: string) => url.slice(`https://${host}`.length);
    const redirected = await customDomainRequest(host, pathOf(click), { address, headers: { 'user-agent': BROWSER } });
    expect(redirected.status).toBe(302);
    expect(redirected.headers.location).toBe(target);
    const opened = await customDomainRequest(host, pathOf(pixel), { address, headers: { 'user-agent': BROWSER } });
    expect(opened.status).toBe(200);
    expect(opened.type).toBe('image/gif');
    await waitFor(async () => (await stack().services.emails.get(sent.body.id))?.email.opened_at, 'the open recorded on the email');
    // Only the links routes are on the link domain: the API's are API Gateway's 404 there.
    const other = await customDomainRequest(host, '/emails', { address, headers: { authorization: `Bearer ${account.key}` } });
    expect(other.status).toBe(404);
  });

  it(
    'DELETE answers at once; the task deletes the custom domain name and the certificate, and the item',
    async () => {
      const deleted = await api('DELETE', `/domains/${domain.id}/link-domain`, { key: account.key });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ object: 'link_domain', domain_id: domain.id, deleted: true });
      expect((await api('GET', `/domains/${domain.id}/link-domain`, { key: account.key })).status).toBe(404);
      const records = (await api('GET', `/domains/${domain.id}`, { key: account.key })).body.domain.records as { purpose: string }[];
      expect(records.filter((record) => record.purpose.startsWith('link_'))).toEqual([]);
      await hostGone(clients, host, 'after DELETE', WAIT_MS);
      await expect(customDomainRequest(host, '/t/open/x')).rejects.toThrow();
      expect(await stack().services.linkDomains.get(host)).toBeNull();
    },
    2 * WAIT_MS,
  );
});

it(
  "deleting a domain removes its link domain (the host's AWS resources with it)",
  async () => {
    const other = await verifiedDomain(account);
    const otherHost = `links.${other.name}`;
    expect((await api('PUT', `/domains/${other.id}/link-domain`, { key: account.key })).status).toBe(200);
    await waitForLinkDomain(account, other.id, (l) => recordOf(l, 'certificate_validation') !== undefined, 'to request its certificate');
    expect((await api('DELETE', `/domains/${other.id}`, { key: account.key })).status).toBe(200);
    await hostGone(clients, otherHost, 'after the domain was deleted', WAIT_MS);
    await waitWithTask(
      'domain-health',
      async () => (await stack().services.linkDomains.get(otherHost)) === null,
      `${otherHost}'s item to be deleted`,
      WAIT_MS,
    );
  },
  3 * WAIT_MS,
);

describe("the dashboard's domain page", () => {
  it(
    'sets the link domain up from its section (POST with the CSRF token), shows its status and records as they appear, checks it and stops it',
    async () => {
      const shown = await verifiedDomain(account);
      const session = await signIn((await newDashboardUser(account)).email);
      const pageOf = async () => (await dashboardRequest('GET', `/dashboard/domains/${shown.id}`, { cookie: session.cookie })).text;
      const form = (path: string, csrf = session.csrf) =>
        dashboardRequest('POST', path, {
          cookie: session.cookie,
          rawBody: new URLSearchParams({ csrf_token: csrf }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
      const before = await pageOf();
      expect(before).toContain('Link domain');
      expect(before).toContain(`<code>links.${shown.name}</code>`);
      expect(before).toContain('Set up a link domain');
      // Without the session's CSRF token nothing is set up.
      expect((await form(`/dashboard/domains/${shown.id}/link-domain`, 'not-the-token')).status).toBe(403);
      expect((await api('GET', `/domains/${shown.id}/link-domain`, { key: account.key })).status).toBe(404);

      const set = await form(`/dashboard/domains/${shown.id}/link-domain`);
      expect([set.status, set.headers.location]).toEqual([303, `/dashboard/domains/${shown.id}`]);
      const listed = await waitForLinkDomain(
        account,
        shown.id,
        (l) => recordOf(l, 'certificate_validation') !== undefined,
        'to list its validation record',
      );
      const validation = recordOf(listed, 'certificate_validation')!;
      const page = await pageOf();
      expect(page).toContain(`<code>https://links.${shown.name}</code>`);
      expect(page).toContain('certificate validation');
      expect(page).toContain(`<code>${validation.name}</code>`);
      expect(page).toContain('Check the link domain');
      expect(page).toContain('Stop the link domain');
      expect(page).not.toContain('Set up a link domain');
      // Published, then checked now from the page: the host is served and its CNAME listed.
      await publish(validation.name, 'CNAME', [validation.value]);
      expect((await form(`/dashboard/domains/${shown.id}/link-domain`)).status).toBe(303);
      const served = await waitForLinkDomain(account, shown.id, (l) => l.status === 'pending_dns', 'to be served');
      const servedPage = await pageOf();
      expect(servedPage).toContain('link host');
      expect(servedPage).toContain(`<code class="value">${recordOf(served, 'link_host')!.value}</code>`);

      expect((await form(`/dashboard/domains/${shown.id}/link-domain/delete`)).status).toBe(303);
      expect((await api('GET', `/domains/${shown.id}/link-domain`, { key: account.key })).status).toBe(404);
      expect(await pageOf()).toContain('Set up a link domain');
      await hostGone(clients, `links.${shown.name}`, 'after Stop the link domain', WAIT_MS);
    },
    4 * WAIT_MS,
  );
});

it("the account's bound is a counter in the table: creations past it are refused, a removal gives the place back", async () => {
  const { linkDomains } = stack().services;
  const accountId = `acc_bound${Date.now()}`;
  const now = new Date();
  const linkDomainOf = (name: string): StoredLinkDomain => ({
    ...firstAttempt({ id: `dom_${name}`, account_id: accountId }, 'starting', now.toISOString()),
    host: `links.${name}.bound.example`,
    domain_name: `${name}.bound.example`,
    version: 1,
  });
  // A transaction that lost to a concurrent one on the counter is tried again, as PUT does.
  const create = async (name: string) => {
    for (;;) {
      const outcome = await linkDomains.create(linkDomainOf(name), now, 2);
      if (outcome !== 'conflict') return outcome;
    }
  };
  // Three creations racing for a bound of 2 (different hosts): exactly two stored, the third at the bound.
  const raced = await Promise.all(['a', 'b', 'c'].map(create));
  expect([...raced].sort()).toEqual(['limit', 'saved', 'saved']);
  const refused = ['a', 'b', 'c'].find((_, i) => raced[i] !== 'saved')!;
  expect(await linkDomains.create(linkDomainOf(refused), now, 2)).toBe('limit');
  const stored = (await linkDomains.get(linkDomainOf(['a', 'b', 'c'].find((_, i) => raced[i] === 'saved')!).host))!;
  expect(await linkDomains.remove(stored.hosting)).toBe('deleted');
  expect(await linkDomains.create(linkDomainOf(refused), now, 2)).toBe('saved');
});
