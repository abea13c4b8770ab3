/**
 * Teams and roles (docs/dashboard.md, "Teams and roles"), against the running local cloud: an owner
 * invites an admin, a developer and a viewer; each accepts through the link (JSON and the accept page's
 * form), signs in, and is allowed or refused (403) on every kind of door: the team's JSON doors, the
 * spec's /api doors, the pages and their forms in each of the three dashboard functions. Then role
 * changes and removals take effect at once, and the last owner survives: alone (409) and when two owners
 * demote or remove each other at the same moment (exactly one wins; DynamoDB decides, not a read).
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './harness/usage';
import { simpleParser } from 'mailparser';
import { invitationTokenHash } from '#shared/domain/dashboard/invitation';
import type { DashboardRole } from '#shared/domain/dashboard/roles';
import {
  DASHBOARD_PASSWORD,
  dashboardRequest,
  newDashboardUser,
  sessionTokenOf,
  signIn,
  type DashboardResponse,
  type SignedIn,
} from './harness/dashboard';
import { verifiedDomain } from './harness/domains';
import { newAccount, sesMessagesFor, stack, uniqueEmail, waitForStatus, type TestAccount } from './harness/stack';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let account: TestAccount;
let owner: SignedIn & { id: string; email: string };
const members = {} as Record<Exclude<DashboardRole, 'owner'>, SignedIn & { id: string; email: string }>;

const json = (method: string, path: string, who: SignedIn, body?: unknown) =>
  dashboardRequest(method, path, { cookie: who.cookie, csrf: who.csrf, ...(body === undefined ? {} : { body }) });
const page = (path: string, who: SignedIn) => dashboardRequest('GET', path, { cookie: who.cookie });
function post(path: string, who: SignedIn, fields: Record<string, string> = {}): Promise<DashboardResponse> {
  const body = new URLSearchParams({ csrf_token: who.csrf, ...fields });
  return dashboardRequest('POST', path, { cookie: who.cookie, rawBody: body.toString(), headers: FORM });
}
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const invite = (who: SignedIn, email: string, role: DashboardRole) => json('POST', '/dashboard/team/invitations', who, { email, role });

beforeAll(async () => {
  // Production sending unlocked (a payment method; the domain comes later): the invitation email may reach anyone.
  account = await newAccount({ plan: 'pro', paymentMethod: true });
  const created = await newDashboardUser(account); // as `admin user create`: an owner
  owner = { ...(await signIn(created.email)), id: created.user.id, email: created.email };
});

describe('invitations', () => {
  it('an owner invites; the answer has the link once, the table keeps only the token hash', async () => {
    const email = uniqueEmail('admin');
    const response = await invite(owner, email, 'admin');
    expect(response.status).toBe(201);
    expect(response.body.invitation).toMatchObject({
      object: 'dashboard_invitation',
      id: expect.stringMatching(/^inv_/),
      account_id: account.id,
      email,
      role: 'admin',
      invited_by: owner.email,
    });
    const token = tokenOf(response.body.link);
    expect(response.body.link).toBe(`${new URL(stack().apiUrl).origin}/dashboard/accept-invitation?token=${token}`);
    // Every page of the scan: the shared stack's table holds every test's items, and a filtered Scan answers
    // a page at a time (1 MB read), matches or not.
    const stored: { Items: Record<string, any>[] } = { Items: [] };
    let start: Record<string, unknown> | undefined;
    const client = documentClient();
    do {
      const page = await client.send(
        new ScanCommand({
          TableName: stack().info.env.TABLE_NAME,
          FilterExpression: 'id = :id',
          ExpressionAttributeValues: { ':id': response.body.invitation.id },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      stored.Items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    client.destroy();
    expect(stored.Items).toHaveLength(1);
    expect(JSON.stringify(stored.Items)).not.toContain(token);
    expect(stored.Items![0]!.PK).toBe(`DASHINVITE#${invitationTokenHash(token)}`);

    // The team lists it as pending.
    const team = await json('GET', '/dashboard/team', owner);
    expect(team.status).toBe(200);
    expect(team.body.invitations.map((one: { email: string }) => one.email)).toContain(email);

    // Accepted with JSON: the user exists with the role, and is signed in.
    const accepted = await dashboardRequest('POST', '/dashboard/accept-invitation', { body: { token, password: DASHBOARD_PASSWORD } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.user).toMatchObject({ email, role: 'admin', account_id: account.id });
    expect(sessionTokenOf(accepted)).toBeDefined();
    members.admin = { ...(await signIn(email)), id: accepted.body.user.id, email };
    // Hashed by the stack's function with the suite's PASSWORD_HASH_COST (the global setup's), which reaches the
    // functions as a tuning knob of the stack's environment (docs/dashboard.md).
    const hashed = await stack().services.dashboardUsers.getByEmail(email);
    expect(hashed!.password_hash.startsWith(`$scrypt$${process.env.PASSWORD_HASH_COST}$`)).toBe(true);

    // Single use: the same link again is refused, and no longer pending.
    const again = await dashboardRequest('POST', '/dashboard/accept-invitation', { body: { token, password: DASHBOARD_PASSWORD } });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toMatch(/not valid: it was used, revoked or has expired/);
    expect((await json('GET', '/dashboard/team', owner)).body.invitations.map((one: { email: string }) => one.email)).not.toContain(email);
  });

  it('the accept page names the invitation and its form sets the password, signs in and goes to the dashboard', async () => {
    const email = uniqueEmail('dev');
    const { link } = (await invite(members.admin, email, 'developer')).body;
    const shown = await dashboardRequest('GET', new URL(link).pathname + new URL(link).search);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('<h1>Accept the invitation</h1>');
    expect(shown.text).toContain(email);
    expect(shown.text).toContain('<strong>developer</strong>');
    const form = (fields: Record<string, string>) =>
      dashboardRequest('POST', '/dashboard/accept-invitation', { rawBody: new URLSearchParams(fields).toString(), headers: FORM });
    const short = await form({ token: tokenOf(link), password: 'short' });
    expect(short.status).toBe(400);
    expect(short.text).toMatch(/password must be at least 12 characters/);
    const done = await form({ token: tokenOf(link), password: DASHBOARD_PASSWORD });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/dashboard/emails');
    expect(sessionTokenOf(done)).toBeDefined();
    const signedIn = await signIn(email);
    members.developer = { ...signedIn, id: signedIn.response.body.user.id, email };
    expect(signedIn.response.body.user.role).toBe('developer');
  });

  it('the members page form invites a viewer and, without a sender, shows the link once', async () => {
    const email = uniqueEmail('viewer');
    const membersPage = await page('/dashboard/members', owner);
    expect(membersPage.text).toContain('action="/dashboard/invitations"');
    const response = await post('/dashboard/invitations', owner, { email, role: 'viewer' });
    expect(response.status).toBe(200);
    expect(response.text).toContain('is invited as <strong>viewer</strong>');
    expect(response.text).not.toContain('was emailed');
    const link = /<code aria-label="Invitation link" data-copy>([^<]+)<\/code>/.exec(response.text)?.[1]?.replace(/&amp;/g, '&');
    expect(link).toMatch(/\/dashboard\/accept-invitation\?token=/);
    const accepted = await dashboardRequest('POST', '/dashboard/accept-invitation', {
      body: { token: tokenOf(link!), password: DASHBOARD_PASSWORD },
    });
    expect(accepted.status).toBe(200);
    const signedIn = await signIn(email);
    members.viewer = { ...signedIn, id: signedIn.response.body.user.id, email };
    // The members page lists everyone, for every role.
    const listed = await page('/dashboard/members', members.viewer);
    expect(listed.status).toBe(200);
    for (const one of [owner.email, members.admin.email, members.developer.email, email]) expect(listed.text).toContain(one);
  });

  it('with a sender on a verified domain, the send core emails the invitation; its link signs the invitee up', async () => {
    const domain = await verifiedDomain(account);
    const email = uniqueEmail('mailed');
    const response = await post('/dashboard/invitations', owner, { email, role: 'developer', send_from: `team@${domain.name}` });
    expect(response.status).toBe(200);
    const emailId = /<a href="\/dashboard\/emails\/(msg_[0-9A-Z]+)">follow it<\/a>/.exec(response.text)?.[1];
    expect(emailId).toBeDefined();
    // The local cloud shows the link too (a loopback origin: no real mailbox).
    expect(response.text).toContain('aria-label="Invitation link"');
    await waitForStatus(account, emailId!, 'delivered');
    const [message] = await sesMessagesFor(emailId!);
    expect(message!.to).toEqual([email]);
    expect(message!.from).toContain(`team@${domain.name}`);
    const parsed = await simpleParser(Buffer.from(message!.raw_base64, 'base64'));
    expect(parsed.subject).toBe(`${owner.email} invited you to their mail service dashboard`);
    const link = /(http:\/\/\S+\/dashboard\/accept-invitation\?token=[A-Za-z0-9_-]{43})/.exec(parsed.text ?? '')?.[1];
    expect(link).toBeDefined();
    const accepted = await dashboardRequest('POST', '/dashboard/accept-invitation', {
      body: { token: tokenOf(link!), password: DASHBOARD_PASSWORD },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.user).toMatchObject({ email, role: 'developer' });
  });

  it('a sender the send core refuses: nothing is sent or kept, the members page says why', async () => {
    const email = uniqueEmail('unsent');
    const response = await post('/dashboard/invitations', owner, { email, role: 'viewer', send_from: 'team@not-verified.example' });
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe('/dashboard/members');
    const flash = response.setCookies.find((line) => line.startsWith('svc_flash='))!.split(';')[0]!;
    const back = await dashboardRequest('GET', '/dashboard/members', { headers: { cookie: `svc_session=${owner.cookie}; ${flash}` } });
    expect(back.text).toMatch(/role="alert">The invitation was not sent \(and not kept\)/);
    expect((await json('GET', '/dashboard/team', owner)).body.invitations.map((one: { email: string }) => one.email)).not.toContain(email);
  });

  it('a revoked or expired invitation, or an address that has a user, is refused', async () => {
    const revoked = await invite(owner, uniqueEmail('revoked'), 'viewer');
    expect((await json('DELETE', `/dashboard/team/invitations/${revoked.body.invitation.id}`, owner)).status).toBe(200);
    expect(
      (
        await dashboardRequest('POST', '/dashboard/accept-invitation', {
          body: { token: tokenOf(revoked.body.link), password: DASHBOARD_PASSWORD },
        })
      ).status,
    ).toBe(400);

    // An invitation made a week and a minute ago (written through the store, as the use case does).
    const token = 'e'.repeat(43);
    const old = new Date(Date.now() - 60_000).toISOString();
    await stack().services.invitations.create(
      {
        id: `inv_01${'A'.repeat(24)}`,
        account_id: account.id,
        email: uniqueEmail('late'),
        role: 'viewer',
        invited_by: owner.id,
        invited_by_email: owner.email,
        created_at: old,
        expires_at: old,
      },
      invitationTokenHash(token),
    );
    expect((await dashboardRequest('POST', '/dashboard/accept-invitation', { body: { token, password: DASHBOARD_PASSWORD } })).status).toBe(
      400,
    );
    expect((await dashboardRequest('GET', `/dashboard/accept-invitation?token=${token}`)).status).toBe(400);

    const taken = await invite(owner, members.viewer.email, 'developer');
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toMatch(/already a member of this account/);
  });
});

describe('each role, on every kind of door', () => {
  type Who = 'owner' | 'admin' | 'developer' | 'viewer';
  const who = (role: Who) => (role === 'owner' ? owner : members[role]);
  const ROLES: Who[] = ['owner', 'admin', 'developer', 'viewer'];
  const changes = (role: Who) => role !== 'viewer';
  const managesMembers = (role: Who) => role === 'owner' || role === 'admin';

  it.each(ROLES)('%s: every page of the three functions opens', async (role) => {
    for (const path of ['/dashboard/emails', '/dashboard/domains', '/dashboard/api-keys', '/dashboard/webhooks', '/dashboard/members']) {
      expect({ path, status: (await page(path, who(role))).status }).toEqual({ path, status: 200 });
    }
    expect((await json('GET', '/dashboard/team', who(role))).status).toBe(200);
    expect((await json('GET', '/api/webhooks', who(role))).status).toBe(200);
    expect((await json('GET', '/dashboard/session', who(role))).body.user.role).toBe(role);
  });

  it.each(ROLES)('%s: the /api doors change things unless a viewer', async (role) => {
    const created = await json('POST', '/api/webhooks', who(role), { url: 'https://127.0.0.1:1/hook', events: ['email.delivered'] });
    expect(created.status).toBe(changes(role) ? 200 : 403);
    const event = await json('POST', '/api/events', who(role), { name: 'team.checked', user_id: 'u-team' });
    expect(event.status).toBe(changes(role) ? 202 : 403);
    if (!changes(role)) {
      expect(created.body.error).toEqual(
        expect.objectContaining({
          code: 'forbidden',
          message: 'Your dashboard role (viewer) is read-only: it cannot change anything in this account.',
        }),
      );
    }
  });

  it.each(ROLES)('%s: the forms of each function work unless a viewer (403, the page says why)', async (role) => {
    // The widest scope each role may grant (a developer's keys stop at mail:admin: test/integration/key-reach.test.ts).
    const key = await post('/dashboard/api-keys', who(role), { name: `by ${role}`, scopes: role === 'developer' ? 'mail:admin' : 'full' });
    expect(key.status).toBe(changes(role) ? 200 : 403);
    // dashboard-emails: the test send (to the account's own address: the sandbox reaches it).
    const test = await post('/dashboard/emails/test', who(role), { to: account.email, subject: `from ${role}` });
    expect(test.status).toBe(changes(role) ? 303 : 403);
    if (changes(role)) expect(test.headers.location).toMatch(/^\/dashboard\/emails\/msg_/);
    // dashboard-domains: a name the use case refuses (the form's flash: 303), unless the role is refused first.
    const domain = await post('/dashboard/domains', who(role), { name: 'not a domain' });
    expect(domain.status).toBe(changes(role) ? 303 : 403);
    if (!changes(role)) {
      for (const refused of [key, test, domain]) {
        expect(refused.headers['content-type']).toMatch(/^text\/html/);
        expect(refused.text).toContain('<h1>Not allowed</h1>');
        expect(refused.text).toContain('Your dashboard role (viewer) is read-only');
      }
    }
    // Signing out is a change every role may make (checked on a second session, to keep this one).
    const other = await signIn(who(role).response.body.user.email);
    expect((await json('POST', '/dashboard/sign-out', other)).status).toBe(200);
  });

  it.each(ROLES)('%s: members are managed by owners and admins only (JSON and forms)', async (role) => {
    const email = uniqueEmail(`by-${role}`);
    const byJson = await invite(who(role), email, 'viewer');
    expect(byJson.status).toBe(managesMembers(role) ? 201 : 403);
    const byForm = await post('/dashboard/invitations', who(role), { email: uniqueEmail(`form-${role}`), role: 'viewer' });
    expect(byForm.status).toBe(managesMembers(role) ? 200 : 403);
    if (role === 'developer') {
      expect(byJson.body.error.message).toBe(
        "Your dashboard role (developer) cannot manage the account's members (owners and admins can).",
      );
      expect(byForm.text).toContain('<h1>Not allowed</h1>');
    }
    // The members page shows the forms to those who may use them.
    expect((await page('/dashboard/members', who(role))).text.includes('Invite a member')).toBe(managesMembers(role));
    if (byJson.status === 201)
      expect((await json('DELETE', `/dashboard/team/invitations/${byJson.body.invitation.id}`, who(role))).status).toBe(200);
  });

  it('an admin cannot make, change or remove owners; an owner can make one', async () => {
    expect((await invite(members.admin, uniqueEmail('own'), 'owner')).status).toBe(403);
    expect((await json('PATCH', `/dashboard/team/members/${owner.id}`, members.admin, { role: 'viewer' })).status).toBe(403);
    expect((await json('DELETE', `/dashboard/team/members/${owner.id}`, members.admin)).status).toBe(403);
    expect((await json('PATCH', `/dashboard/team/members/${members.viewer.id}`, members.admin, { role: 'owner' })).status).toBe(403);
    expect((await post(`/dashboard/members/${owner.id}/remove`, members.admin)).status).toBe(403);
    expect((await invite(owner, uniqueEmail('own'), 'owner')).status).toBe(201);
  });
});

describe('changing and removing members', () => {
  it('a new role takes effect at the next request; a removed member is signed out', async () => {
    const person = await newInvitee('developer');
    expect((await json('POST', '/api/events', person, { name: 'team.checked', user_id: 'u-team' })).status).toBe(202);
    const changed = await json('PATCH', `/dashboard/team/members/${person.id}`, members.admin, { role: 'viewer' });
    expect(changed.status).toBe(200);
    expect(changed.body.member).toMatchObject({ id: person.id, role: 'viewer' });
    expect((await json('POST', '/api/events', person, { name: 'team.checked', user_id: 'u-team' })).status).toBe(403);
    // Back to developer through the members page's form.
    const form = await post(`/dashboard/members/${person.id}/role`, owner, { role: 'developer' });
    expect(form.status).toBe(303);
    expect((await json('GET', '/dashboard/session', person)).body.user.role).toBe('developer');
    // Removed through the form: its session ends, it cannot sign in.
    expect((await post(`/dashboard/members/${person.id}/remove`, members.admin)).status).toBe(303);
    expect((await json('GET', '/dashboard/session', person)).status).toBe(401);
    expect(
      (await dashboardRequest('POST', '/dashboard/sign-in', { body: { email: person.email, password: DASHBOARD_PASSWORD } })).status,
    ).toBe(401);
    expect((await json('DELETE', `/dashboard/team/members/${person.id}`, owner)).status).toBe(404);
  });

  it('a bad role is a 400, an unknown member a 404', async () => {
    expect((await json('PATCH', `/dashboard/team/members/${members.viewer.id}`, owner, { role: 'superuser' })).status).toBe(400);
    expect((await json('PATCH', '/dashboard/team/members/usr_nobody', owner, { role: 'viewer' })).status).toBe(404);
    expect((await invite(owner, 'not an address', 'viewer')).status).toBe(400);
  });
});

describe('the last owner', () => {
  it('alone, cannot be demoted or removed (409), by JSON or form', async () => {
    const solo = await newAccount();
    const created = await newDashboardUser(solo);
    const me = await signIn(created.email);
    const demote = await json('PATCH', `/dashboard/team/members/${created.user.id}`, me, { role: 'admin' });
    expect(demote.status).toBe(409);
    expect(demote.body.error.message).toMatch(/last owner: it cannot be removed or demoted/);
    expect((await json('DELETE', `/dashboard/team/members/${created.user.id}`, me)).status).toBe(409);
    const form = await post(`/dashboard/members/${created.user.id}/remove`, me);
    expect(form.status).toBe(303);
    const flash = form.setCookies.find((line) => line.startsWith('svc_flash='))!.split(';')[0]!;
    const back = await dashboardRequest('GET', '/dashboard/members', { headers: { cookie: `svc_session=${me.cookie}; ${flash}` } });
    expect(back.text).toMatch(/role="alert">[^<]*last owner/);
    expect((await json('GET', '/dashboard/session', me)).body.user.role).toBe('owner');
  });

  it.each([
    ['demote each other', 'PATCH'],
    ['remove each other', 'DELETE'],
    ['demote themselves', 'PATCH-SELF'],
  ])('two owners who %s at the same moment: exactly one succeeds, one owner is left', async (_name, kind) => {
    const pair = await newAccount();
    const a = await newDashboardUser(pair);
    const aSession = await signIn(a.email);
    const bEmail = uniqueEmail('b');
    const { link } = (await invite(aSession, bEmail, 'owner')).body;
    const accepted = await dashboardRequest('POST', '/dashboard/accept-invitation', {
      body: { token: tokenOf(link), password: DASHBOARD_PASSWORD },
    });
    const bSession = await signIn(bEmail);
    const ids = { a: a.user.id, b: accepted.body.user.id as string };
    const act = (actor: SignedIn, target: string) =>
      kind === 'DELETE'
        ? json('DELETE', `/dashboard/team/members/${target}`, actor)
        : json('PATCH', `/dashboard/team/members/${target}`, actor, { role: 'developer' });
    const answers =
      kind === 'PATCH-SELF'
        ? await Promise.all([act(aSession, ids.a), act(bSession, ids.b)])
        : await Promise.all([act(aSession, ids.b), act(bSession, ids.a)]);
    // One wins. The other is refused by the owner counter's condition (409), or, when its session was
    // read after the winner committed, as what it has become (demoted: 403; removed: 401).
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    const loser = answers.find((answer) => answer.status !== 200)!;
    expect(kind === 'PATCH-SELF' ? [409] : kind === 'PATCH' ? [403, 409] : [401, 409]).toContain(loser.status);
    const left = (await stack().services.dashboardUsers.listByAccount(pair.id)).filter((user) => user.role === 'owner');
    expect(left).toHaveLength(1);
    expect(await stack().services.dashboardUsers.ownerCount(pair.id)).toBe(1);
  });
});

describe('the last owner, at the store', () => {
  it('two writes made from the same read (both see two owners) cannot both commit: the counter condition refuses one', async () => {
    const users = stack().services.dashboardUsers;
    for (const round of [1, 2, 3]) {
      const pair = await newAccount();
      const a = (await newDashboardUser(pair)).user;
      const b = (await newDashboardUser(pair)).user;
      expect(await users.ownerCount(pair.id)).toBe(2);
      // Both reads first, then both writes at once: whatever was read, DynamoDB decides.
      const [readA, readB] = [(await users.getById(pair.id, a.id))!, (await users.getById(pair.id, b.id))!];
      const now = new Date().toISOString();
      const results = await Promise.allSettled(
        round === 2
          ? [users.remove(readA), users.remove(readB)]
          : [users.changeRole(readA, 'viewer', now), round === 1 ? users.changeRole(readB, 'admin', now) : users.remove(readB)],
      );
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ status: 409, code: 'conflict', details: { reason: 'last_owner' } });
      expect((await users.listByAccount(pair.id)).filter((user) => user.role === 'owner')).toHaveLength(1);
      expect(await users.ownerCount(pair.id)).toBe(1);
    }
  });
});

/** A fresh member with `role`, invited by the owner and accepted (through the doors). */
async function newInvitee(role: DashboardRole): Promise<SignedIn & { id: string; email: string }> {
  const email = uniqueEmail(role);
  const { link } = (await invite(owner, email, role)).body;
  const accepted = await dashboardRequest('POST', '/dashboard/accept-invitation', {
    body: { token: tokenOf(link), password: DASHBOARD_PASSWORD },
  });
  expect(accepted.status).toBe(200);
  return { ...(await signIn(email)), id: accepted.body.user.id, email };
}
