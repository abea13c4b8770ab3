/**
 * The account's settings page (docs/dashboard.md, "Settings") against the running local cloud: an owner
 * and an admin see each retention window with the plan's bounds and change windows and content storage
 * through the form (GET /account then answers the new values); a developer and a viewer see the page
 * read-only and are refused the form (403, nothing changed); a value outside the plan's bounds is the page
 * again with the problem (400, nothing changed); each change is in the audit log exactly once.
 */
import type { DashboardRole } from '../../shared/domain/dashboard/roles';
import { dashboardRequest, newDashboardUser, signIn, type DashboardResponse, type SignedIn } from './harness/dashboard';
import { api, newAccount, type TestAccount } from './harness/stack';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const PATH = '/dashboard/settings';

type Member = SignedIn & { id: string; email: string };
let account: TestAccount;
let owner: Member;
const members = {} as Record<Exclude<DashboardRole, 'owner'>, Member>;

const page = (who: SignedIn) => dashboardRequest('GET', PATH, { cookie: who.cookie });
function post(who: SignedIn, fields: Record<string, string>): Promise<DashboardResponse> {
  const body = new URLSearchParams({ csrf_token: who.csrf, ...fields });
  return dashboardRequest('POST', PATH, { cookie: who.cookie, rawBody: body.toString(), headers: FORM });
}
/** Follows a 303 as a browser does: the Location with the session and the flash cookie it set. */
async function follow(response: DashboardResponse, who: SignedIn): Promise<DashboardResponse> {
  expect(response.status).toBe(303);
  expect(response.headers.location).toBe(PATH);
  const flash = response.setCookies.find((line) => line.startsWith('svc_flash='))?.split(';')[0];
  return dashboardRequest('GET', response.headers.location!, { headers: { cookie: [`svc_session=${who.cookie}`, ...(flash ? [flash] : [])].join('; ') } });
}
const accountSettings = async () => {
  const response = await api('GET', '/account', { key: account.key });
  expect(response.status).toBe(200);
  return response.body as { retention: Record<string, number>; store_content: boolean };
};
const h1 = (text: string) => /<h1>([^<]*)<\/h1>/.exec(text)?.[1];
/** The option a select shows as chosen. */
const selected = (text: string, name: string) => new RegExp(`<select[^>]*name="${name.replace('.', '\\.')}"[^>]*>(.*?)</select>`).exec(text)?.[1]?.match(/<option value="([^"]*)" selected>/)?.[1];
const hasForm = (text: string) => text.includes(`<form method="post" action="${PATH}"`);

beforeAll(async () => {
  account = await newAccount({ plan: 'pro' }); // windows of 1 to 90 days, 90 by default
  const created = await newDashboardUser(account); // an owner, as `admin user create` makes
  owner = { ...(await signIn(created.email)), id: created.user.id, email: created.email };
  for (const role of ['admin', 'developer', 'viewer'] as const) {
    const member = await newDashboardUser(account);
    const changed = await dashboardRequest('PATCH', `/dashboard/team/members/${member.user.id}`, { cookie: owner.cookie, csrf: owner.csrf, body: { role } });
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

  it('an owner changes a window and content storage: GET /account answers the new values', async () => {
    const saved = await follow(await post(owner, { 'retention.emails_days': '30', 'retention.received_emails_days': '90', store_content: 'off' }), owner);
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('Settings saved. Sent emails: kept 30 days; sent content is no longer kept.');
    expect(selected(saved.text, 'retention.emails_days')).toBe('30');
    expect(selected(saved.text, 'store_content')).toBe('off');
    expect(await accountSettings()).toMatchObject({ retention: { emails_days: 30, received_emails_days: 90, webhook_deliveries_days: 90, imports_days: 90 }, store_content: false });
  });

  it('an admin can too', async () => {
    const saved = await follow(await post(members.admin, { 'retention.imports_days': '7', store_content: 'on' }), members.admin);
    expect(saved.text).toContain('Settings saved. Import reports: kept 7 days; sent content is kept.');
    expect(await accountSettings()).toMatchObject({ retention: { emails_days: 30, imports_days: 7 }, store_content: true });
  });

  it.each(['developer', 'viewer'] as const)('a %s sees the page read-only and is refused the form (403), nothing changed', async (role) => {
    const who = members[role];
    const shown = await page(who);
    expect(shown.status).toBe(200);
    expect(h1(shown.text)).toBe('Settings');
    expect(hasForm(shown.text)).toBe(false);
    expect(shown.text).toMatch(new RegExp(`Your role \\(${role}\\) cannot change the account(&#39;|')s settings: owners and admins can\\.`));
    const before = await accountSettings();
    const refused = await post(who, { 'retention.emails_days': '1', store_content: 'off' });
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
    [{ 'retention.webhook_deliveries_days': '45', store_content: 'off' }, 'retention.webhook_deliveries_days must be one of 1, 7, 14, 30, 60, 90, 180, 365, 730 (days)'],
    [{ 'retention.emails_days': 'forever' }, 'retention.emails_days must be a number of days.'],
    [{ store_content: 'maybe' }, 'store_content must be on or off.'],
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
      const response: { status: number; body: { audit_records: Record_[]; next_cursor: string | null } } = await api('GET', `/audit-log?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { key: account.key });
      expect(response.status).toBe(200);
      records.push(...response.body.audit_records);
      cursor = response.body.next_cursor;
    } while (cursor);
    const changes = records.filter((record) => record.action === 'POST /dashboard/settings');
    // Newest first: the admin's change, then the owner's.
    expect(changes.map((record) => [record.actor.type, record.actor.id, record.actor.role, record.status])).toEqual([
      ['user', members.admin.id, 'admin', 303],
      ['user', owner.id, 'owner', 303],
    ]);
  });
});
