/**
 * The account's settings page (docs/dashboard.md, "Settings") against the running local cloud: an owner
 * and an admin see each retention window with the plan's bounds and change windows and content storage
 * through the form (GET /account then answers the new values); a developer and a viewer see the page
 * read-only and are refused the form (403, nothing changed); a value outside the plan's bounds is the page
 * again with the problem (400, nothing changed); each change is in the audit log exactly once. The same for
 * the bounce categories that suppress the address (`suppress_bounce_categories`, a checkbox per category).
 */
import type { DashboardRole } from '#shared/domain/dashboard/roles';
import { dashboardRequest, newDashboardUser, signIn, type DashboardResponse, type SignedIn } from './harness/dashboard';
import { api, newAccount, type TestAccount } from './harness/stack';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const PATH = '/dashboard/settings';

type Member = SignedIn & { id: string; email: string };
let account: TestAccount;
let owner: Member;
const members = {} as Record<Exclude<DashboardRole, 'owner'>, Member>;

const page = (who: SignedIn) => dashboardRequest('GET', PATH, { cookie: who.cookie });
/** A field given a list is posted once per value, as checkboxes are. */
function post(who: SignedIn, fields: Record<string, string | string[]>): Promise<DashboardResponse> {
  const body = new URLSearchParams({ csrf_token: who.csrf });
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one);
  return dashboardRequest('POST', PATH, { cookie: who.cookie, rawBody: body.toString(), headers: FORM });
}
/** Follows a 303 as a browser does: the Location with the session and the flash cookie it set. */
async function follow(response: DashboardResponse, who: SignedIn): Promise<DashboardResponse> {
  expect(response.status).toBe(303);
  expect(response.headers.location).toBe(PATH);
  const flash = response.setCookies.find((line) => line.startsWith('svc_flash='))?.split(';')[0];
  return dashboardRequest('GET', response.headers.location!, {
    headers: { cookie: [`svc_session=${who.cookie}`, ...(flash ? [flash] : [])].join('; ') },
  });
}
const accountSettings = async () => {
  const response = await api('GET', '/account', { key: account.key });
  expect(response.status).toBe(200);
  return response.body as { retention: Record<string, number>; store_content: boolean; suppress_bounce_categories: string[] };
};
const h1 = (text: string) => /<h1>([^<]*)<\/h1>/.exec(text)?.[1];
/** The option a select shows as chosen. */
const selected = (text: string, name: string) =>
  new RegExp(`<select[^>]*name="${name.replace('.', '\\.')}"[^>]*>(.*?)</select>`)
    .exec(text)?.[1]
    ?.match(/<option value="([^"]*)" selected>/)?.[1];
const hasForm = (text: string) => text.includes(`<form method="post" action="${PATH}"`);
/** The bounce categories' checkboxes: value, label and whether checked, in page order. */
const categoryBoxes = (text: string) =>
  [
    ...text.matchAll(
      /<input type="checkbox" id="([^"]+)" name="suppress_bounce_categories" value="([^"]+)"( checked)?> <label for="\1">([^<]*)<\/label>/g,
    ),
  ].map((m) => [m[2], m[4], m[3] !== undefined]);
/** The categories posted as the form does: the checked ones and the marker of the fieldset. */
const categoriesField = (categories: string[]) => ({ suppress_bounce_categories: categories, suppress_bounce_categories_shown: '1' });

beforeAll(async () => {
  account = await newAccount({ plan: 'pro' }); // windows of 1 to 90 days, 90 by default
  const created = await newDashboardUser(account); // an owner, as `admin user create` makes
  owner = { ...(await signIn(created.email)), id: created.user.id, email: created.email };
  for (const role of ['admin', 'developer', 'viewer'] as const) {
    const member = await newDashboardUser(account);
    const changed = await dashboardRequest('PATCH', `/dashboard/team/members/${member.user.id}`, {
      cookie: owner.cookie,
      csrf: owner.csrf,
      body: { role },
    });
    if (changed.status !== 200) throw new Error(`role change answered ${changed.status}: ${changed.text}`);
    members[role] = { ...(await signIn(member.email)), id: member.user.id, email: member.email };
  }
});

describe('the settings page', () => {
  it("shows an owner each window with the plan's default and maximum, the allowed values as a select, and content storage", async () => {
    const response = await page(owner);
    expect(response.status).toBe(200);
    expect(h1(response.text)).toBe('Settings');
    expect(response.text).toMatch(/<tr><th scope="row">Sent emails<\/th><td>90 days<\/td><td>90 days<\/td><td>90 days<\/td><\/tr>/);
    expect(response.text).toContain('<th scope="row">Import reports</th>');
    expect(hasForm(response.text)).toBe(true);
    const emails = /<select[^>]*name="retention\.emails_days"[^>]*>(.*?)<\/select>/.exec(response.text)?.[1] ?? '';
    expect([...emails.matchAll(/<option value="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([1, 7, 14, 30, 60, 90]);
    expect(selected(response.text, 'retention.emails_days')).toBe('90');
    expect(selected(response.text, 'store_content')).toBe('on');
    expect(response.text).toContain('<a href="/dashboard/settings" aria-current="page">Settings</a>');
  });

  it('shows an owner a checkbox per bounce category with its name, the defaults checked and marked', async () => {
    const response = await page(owner);
    expect(response.text).toContain('<legend>Bounces that suppress the address</legend>');
    expect(categoryBoxes(response.text)).toEqual([
      ['invalid_address', 'Invalid address (default)', true],
      ['mailbox_full', 'Mailbox full', false],
      ['mailbox_inactive', 'Mailbox inactive (default)', true],
      ['domain_invalid', 'Domain invalid (default)', true],
      ['blocked_reputation', 'Blocked for reputation', false],
      ['blocked_content', 'Blocked for content', false],
      ['rate_limited', 'Rate limited', false],
      ['technical', 'Technical', false],
      ['unclassified', 'Unclassified', false],
    ]);
    expect(response.text).toContain(
      'A bounce of these categories puts the address on the suppression list: <strong>Invalid address, Mailbox inactive, Domain invalid</strong>.',
    );
  });

  it('an owner changes a window and content storage: GET /account answers the new values', async () => {
    const saved = await follow(
      await post(owner, { 'retention.emails_days': '30', 'retention.received_emails_days': '90', store_content: 'off' }),
      owner,
    );
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('Settings saved. Sent emails: kept 30 days; sent content is no longer kept.');
    expect(selected(saved.text, 'retention.emails_days')).toBe('30');
    expect(selected(saved.text, 'store_content')).toBe('off');
    expect(await accountSettings()).toMatchObject({
      retention: { emails_days: 30, received_emails_days: 90, webhook_deliveries_days: 90, imports_days: 90 },
      store_content: false,
    });
  });

  it('an admin can too', async () => {
    const saved = await follow(await post(members.admin, { 'retention.imports_days': '7', store_content: 'on' }), members.admin);
    expect(saved.text).toContain('Settings saved. Import reports: kept 7 days; sent content is kept.');
    // A post without the categories' fieldset leaves them as they were.
    expect(await accountSettings()).toMatchObject({
      retention: { emails_days: 30, imports_days: 7 },
      store_content: true,
      suppress_bounce_categories: ['invalid_address', 'mailbox_inactive', 'domain_invalid'],
    });
  });

  it('an owner chooses the bounce categories that suppress: GET /account answers them, the page shows them checked; none checked is none', async () => {
    const saved = await follow(await post(owner, categoriesField(['rate_limited', 'invalid_address', 'mailbox_full'])), owner);
    expect(saved.text).toContain('Settings saved. Bounces that suppress the address: Invalid address, Mailbox full, Rate limited.');
    expect((await accountSettings()).suppress_bounce_categories).toEqual(['invalid_address', 'mailbox_full', 'rate_limited']);
    expect(
      categoryBoxes(saved.text)
        .filter(([, , checked]) => checked)
        .map(([value]) => value),
    ).toEqual(['invalid_address', 'mailbox_full', 'rate_limited']);

    const none = await follow(await post(owner, categoriesField([])), owner);
    expect(none.text).toContain('Bounces that suppress the address: none.');
    expect((await accountSettings()).suppress_bounce_categories).toEqual([]);
    expect(none.text).toContain('A bounce of these categories puts the address on the suppression list: <strong>none</strong>.');
  });

  it.each(['developer', 'viewer'] as const)('a %s sees the page read-only and is refused the form (403), nothing changed', async (role) => {
    const who = members[role];
    const shown = await page(who);
    expect(shown.status).toBe(200);
    expect(h1(shown.text)).toBe('Settings');
    expect(hasForm(shown.text)).toBe(false);
    expect(shown.text).toMatch(
      new RegExp(`Your role \\(${role}\\) cannot change the account(&#39;|')s settings: owners and admins can\\.`),
    );
    expect(shown.text).toContain(
      '<p id="suppress-bounce-categories">A bounce of these categories puts the address on the suppression list: <strong>',
    );
    expect(categoryBoxes(shown.text)).toEqual([]);
    const before = await accountSettings();
    const refused = await post(who, { 'retention.emails_days': '1', store_content: 'off', ...categoriesField(['technical']) });
    expect(refused.status).toBe(403);
    expect(h1(refused.text)).toBe('Not allowed');
    expect(refused.text).toContain(
      role === 'developer'
        ? 'Your dashboard role (developer) cannot change the account&#39;s settings, retention and content storage (owners and admins can).'
        : 'Your dashboard role (viewer) is read-only: it cannot change anything in this account.',
    );
    expect(await accountSettings()).toEqual(before);
  });

  it.each([
    [{ 'retention.emails_days': '180' }, 'retention.emails_days must be at most 90 days on the pro plan'],
    [
      { 'retention.webhook_deliveries_days': '45', store_content: 'off' },
      'retention.webhook_deliveries_days must be one of 1, 7, 14, 30, 60, 90, 180, 365, 730 (days)',
    ],
    [{ 'retention.emails_days': 'forever' }, 'retention.emails_days must be a number of days.'],
    [{ store_content: 'maybe' }, 'store_content must be on or off.'],
    [
      { store_content: 'off', ...categoriesField(['invalid_address', 'bogus']) },
      'suppress_bounce_categories has an unknown category &#39;bogus&#39;',
    ],
  ])('bad input %j is the page again with the problem (400), nothing changed', async (fields, problem) => {
    const before = await accountSettings();
    const response = await post(owner, fields);
    expect(response.status).toBe(400);
    expect(h1(response.text)).toBe('Settings');
    expect(response.text).toContain(`<p class="error" role="alert">`);
    expect(response.text).toContain(problem);
    expect(hasForm(response.text)).toBe(true);
    expect(await accountSettings()).toEqual(before);
  });

  it('each change is in the audit log once, with its member; refusals and bad input are not', async () => {
    type Record_ = { action: string; actor: { type: string; id: string; role: string }; status: number | null };
    const records: Record_[] = [];
    let cursor: string | null = null;
    do {
      const response: { status: number; body: { audit_records: Record_[]; next_cursor: string | null } } = await api(
        'GET',
        `/audit-log?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        { key: account.key },
      );
      expect(response.status).toBe(200);
      records.push(...response.body.audit_records);
      cursor = response.body.next_cursor;
    } while (cursor);
    const changes = records.filter((record) => record.action === 'POST /dashboard/settings');
    // Newest first: the owner's two changes of bounce categories, the admin's change, then the owner's first.
    expect(changes.map((record) => [record.actor.type, record.actor.id, record.actor.role, record.status])).toEqual([
      ['user', owner.id, 'owner', 303],
      ['user', owner.id, 'owner', 303],
      ['user', members.admin.id, 'admin', 303],
      ['user', owner.id, 'owner', 303],
    ]);
  });
});
