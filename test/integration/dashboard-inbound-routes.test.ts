/**
 * The domain page's Routes section (docs/dashboard.md, "Pages"; docs/inbound.md, "Routes") against the running
 * local cloud, as a browser without script sees it: a receiving domain's routes set through the API are listed in
 * order, as text, and prefill the form's JSON; saving JSON through the form replaces them (the API answers the new
 * list); JSON that does not parse, the schema's problems and the use case's are the page again (400) with the
 * problem and its field paths and the JSON as posted, nothing saved; a viewer sees the routes without the form and
 * is refused the action (403), a developer may save; a domain that does not receive mail has no Routes section.
 */
import { randomUUID } from 'node:crypto';
import { dashboardRequest, DASHBOARD_PASSWORD, newDashboardUser, signIn, type DashboardResponse, type SignedIn } from './harness/dashboard';
import { uniqueDomain } from './harness/dns';
import { receivingDomain } from './harness/inbound';
import { api, newAccount, stack, uniqueEmail, type TestAccount } from './harness/stack';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let account: TestAccount;
let inbox: Awaited<ReturnType<typeof receivingDomain>>;
let owner: SignedIn;

beforeAll(async () => {
  account = await newAccount({ plan: 'pro' });
  inbox = await receivingDomain(account);
  owner = await signIn((await newDashboardUser(account)).email);
});

const pathOf = (domainId: string) => `/dashboard/domains/${domainId}`;
const page = (path: string, who: SignedIn = owner) => dashboardRequest('GET', path, { cookie: who.cookie });

/** The form as the browser posts it: url-encoded, the session cookie, the CSRF field (unless null), the Origin. */
function saveRoutes(json: string, options: { who?: SignedIn; csrf?: string | null; domainId?: string } = {}): Promise<DashboardResponse> {
  const who = options.who ?? owner;
  const body = new URLSearchParams();
  const csrf = options.csrf === undefined ? who.csrf : options.csrf;
  if (csrf !== null) body.set('csrf_token', csrf);
  body.set('routes', json);
  return dashboardRequest('POST', `${pathOf(options.domainId ?? inbox.id)}/inbound-routes`, {
    cookie: who.cookie,
    rawBody: body.toString(),
    headers: FORM,
  });
}

/** Follows a 303 as a browser does: GET the Location with the session and the flash cookie it set. */
async function follow(response: DashboardResponse, who: SignedIn = owner): Promise<DashboardResponse> {
  expect(response.status).toBe(303);
  const flash = response.setCookies.find((line) => line.startsWith('svc_flash='))?.split(';')[0];
  return dashboardRequest('GET', response.headers.location!, {
    headers: { cookie: [`svc_session=${who.cookie}`, ...(flash ? [flash] : [])].join('; ') },
  });
}

/** The routes as the API has them. */
async function apiRoutes(domainId = inbox.id): Promise<unknown[]> {
  const response = await api('GET', `/domains/${domainId}/inbound-routes`, { key: account.key });
  expect(response.status).toBe(200);
  return response.body.routes;
}

async function putRoutes(routes: unknown[]): Promise<void> {
  const response = await api('PUT', `/domains/${inbox.id}/inbound-routes`, { key: account.key, body: { routes } });
  expect(response.status).toBe(200);
}

/** Text as the page escapes it back to itself. */
const unescapeHtml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** The Routes section's markup (fails the test when the page has none). */
function routesSection(text: string): string {
  const found = /<section aria-labelledby="routes-heading">[\s\S]*?<\/section>/.exec(text)?.[0];
  expect(found).toBeDefined();
  return found!;
}

/** Each row of the section's table as its cells' markup. */
const rowsOf = (section: string) =>
  [...(/<tbody>([\s\S]*?)<\/tbody>/.exec(section)?.[1] ?? '').matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) => cell[1]),
  );

/** The textarea's text, unescaped (undefined: the section has no form). */
const textareaOf = (section: string) => {
  const found = /<textarea [^>]*name="routes"[^>]*>([\s\S]*?)<\/textarea>/.exec(section)?.[1];
  return found === undefined ? undefined : unescapeHtml(found);
};

/** The error message the page shows (role="alert"), unescaped. */
const alertOf = (text: string) => {
  const found = /<p class="error" role="alert">([\s\S]*?)<\/p>/.exec(text)?.[1];
  return found === undefined ? undefined : unescapeHtml(found);
};

/** An endpoint of the account subscribed to email.received (what a webhooks route may name). */
async function receivedEndpoint(): Promise<string> {
  const created = await api('POST', '/webhooks', {
    key: account.key,
    body: { url: `${stack().info.webhook_inbox_url}dash-routes-${randomUUID().slice(0, 8)}`, events: ['email.received'] },
  });
  expect(created.status).toBe(200);
  return created.body.webhook.id;
}

const HOSTILE = `<script>alert(1)</script><img src=x onerror=alert(2)> & "quoted"`;

describe('the Routes section of a receiving domain', () => {
  it('lists the routes set through the API in order, as text, and prefills the form with them as JSON', async () => {
    const webhookId = await receivedEndpoint();
    await putRoutes([
      {
        description: HOSTILE,
        match: { recipient: 'billing', sender: '@vendor.example' },
        action: { type: 'webhooks', webhook_ids: [webhookId] },
      },
      { match: { recipient: 'support+*' }, action: { type: 'webhooks' } },
      { match: { recipient: 'noreply' }, action: { type: 'refuse', message: '<b>No replies</b> & thanks' } },
      { match: { recipient: 'team-*' }, action: { type: 'refuse' } },
      { description: 'the rest', match: { recipient: '*' }, action: { type: 'store' } },
    ]);

    const shown = await page(pathOf(inbox.id));
    expect(shown.status).toBe(200);
    const section = routesSection(shown.text);
    expect(section).toContain('<h2 id="routes-heading">Routes</h2>');
    expect(section).toContain(`Mail to <code>${inbox.subdomain}</code>, per recipient.`);
    expect(rowsOf(section)).toEqual([
      [
        '1',
        '<code>billing</code>',
        '<code>@vendor.example</code>',
        'webhooks',
        `<a href="/dashboard/webhooks/${webhookId}"><code>${webhookId}</code></a>`,
        '&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt; &amp; &quot;quoted&quot;',
      ],
      [
        '2',
        '<code>support+*</code>',
        '<span class="muted">any</span>',
        'webhooks',
        'every endpoint subscribed to <code>email.received</code>',
        '',
      ],
      ['3', '<code>noreply</code>', '<span class="muted">any</span>', 'refuse (550)', '&lt;b&gt;No replies&lt;/b&gt; &amp; thanks', ''],
      [
        '4',
        '<code>team-*</code>',
        '<span class="muted">any</span>',
        'refuse (550)',
        'Mail to this address is not accepted. <span class="muted">(default)</span>',
        '',
      ],
      [
        '5',
        '<code>*</code>',
        '<span class="muted">any</span>',
        'store only',
        '<span class="muted">no webhook (received emails only)</span>',
        'the rest',
      ],
    ]);
    // Users' text is never markup, neither in the table nor in the textarea.
    expect(shown.text).not.toContain('<script>alert');
    expect(shown.text).not.toContain('<img src=x');
    expect(shown.text).not.toContain('<b>No replies');

    // The form: the stored list, pretty-printed, posting with the session's CSRF token.
    const json = textareaOf(section)!;
    expect(JSON.parse(json)).toEqual(await apiRoutes());
    expect(json).toBe(JSON.stringify(await apiRoutes(), null, 2));
    expect(section).toMatch(
      new RegExp(
        `<form method="post" action="${pathOf(inbox.id)}/inbound-routes"><input type="hidden" name="csrf_token" value="${owner.csrf}">`,
      ),
    );
    expect(section).toContain('<button type="submit">Save routes</button>');
    // The help: the four recipient patterns and the three actions.
    for (const pattern of ['billing', 'support+*', 'team-*', '*']) expect(section).toContain(`<li><code>${pattern}</code>: `);
    for (const action of ['{"type": "webhooks"', '{"type": "store"}', '{"type": "refuse"'])
      expect(section).toContain(`<li><code>${action}`);
  });

  it('saving JSON replaces the routes (the API answers the new list); the API body is taken too, and [] removes them', async () => {
    await putRoutes([{ match: { recipient: 'old' }, action: { type: 'store' } }]);
    const routes = [
      { description: 'Invoices', match: { recipient: 'billing' }, action: { type: 'store' } },
      { match: { recipient: 'noreply', sender: 'alerts@vendor.example' }, action: { type: 'refuse', message: 'Not here.' } },
    ];
    const saved = await saveRoutes(JSON.stringify(routes, null, 2));
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe(pathOf(inbox.id));
    expect(await apiRoutes()).toEqual(routes);
    const after = await follow(saved);
    expect(after.text).toContain(`<p class="ok">Routes saved: 2 routes for ${inbox.subdomain}, applied to new mail within a second.</p>`);
    const section = routesSection(after.text);
    expect(rowsOf(section).map((cells) => cells[1])).toEqual(['<code>billing</code>', '<code>noreply</code>']);
    expect(JSON.parse(textareaOf(section)!)).toEqual(routes);

    // PUT's body pasted as it is: {"routes": [...]}; patterns are kept lower-cased, as the API keeps them.
    expect((await saveRoutes(JSON.stringify({ routes: [{ match: { recipient: 'Sales' }, action: { type: 'webhooks' } }] }))).status).toBe(
      303,
    );
    expect(await apiRoutes()).toEqual([{ match: { recipient: 'sales' }, action: { type: 'webhooks' } }]);

    const removed = await saveRoutes('[]');
    expect(await apiRoutes()).toEqual([]);
    const empty = await follow(removed);
    expect(empty.text).toContain(
      `<p class="ok">Routes removed: every recipient&#39;s mail of ${inbox.subdomain} goes to every endpoint subscribed to email.received.</p>`,
    );
    expect(routesSection(empty.text)).toContain(
      '<p class="muted">No routes: every recipient&#39;s mail goes to every endpoint subscribed to email.received.</p>',
    );
    expect(textareaOf(routesSection(empty.text))).toBe('[]');
  });

  it('JSON that does not parse, the schema’s problems and the use case’s: the page again with the field paths and the JSON as posted; nothing saved', async () => {
    const stored = [{ description: 'keep me', match: { recipient: 'keep' }, action: { type: 'store' } }];
    await putRoutes(stored);

    const broken = '[{"match": {"recipient": "billing"}, ';
    const unparsed = await saveRoutes(broken);
    expect(unparsed.status).toBe(400);
    expect(unparsed.headers['content-type']).toMatch(/^text\/html/);
    expect(/<h1>([^<]*)<\/h1>/.exec(unparsed.text)?.[1]).toBe(inbox.name);
    expect(alertOf(unparsed.text)).toMatch(
      /^The routes are not valid JSON \(.+\); nothing was saved\. routes: not a JSON array of routes$/,
    );
    // What was typed comes back to be fixed; the table still shows what is stored.
    expect(textareaOf(routesSection(unparsed.text))).toBe(broken);
    expect(rowsOf(routesSection(unparsed.text)).map((cells) => cells[1])).toEqual(['<code>keep</code>']);

    const invalid = JSON.stringify([
      { match: { recipient: 'a@b' }, action: { type: 'redirect' } },
      { match: { recipient: 'ok' }, action: { type: 'refuse', message: 'Non, merci é' } },
    ]);
    const refused = await saveRoutes(invalid);
    expect(refused.status).toBe(400);
    const problem = alertOf(refused.text)!;
    expect(problem).toContain('Invalid routes: check routes.0.match.recipient, routes.0.action.type, routes.1.action.message.');
    expect(problem).toContain('routes.0.match.recipient: match.recipient is a local part without @');
    expect(problem).toContain('routes.0.action.type: action.type is webhooks, store, forward or refuse');
    expect(problem).toContain('routes.1.action.message: message is printable ASCII');
    expect(textareaOf(routesSection(refused.text))).toBe(invalid);

    // The use case's own check: an endpoint that is not the account's.
    const unknown = 'wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N';
    const notOurs = await saveRoutes(JSON.stringify([{ match: { recipient: 'x' }, action: { type: 'webhooks', webhook_ids: [unknown] } }]));
    expect(notOurs.status).toBe(400);
    expect(alertOf(notOurs.text)).toContain(`routes.0.action.webhook_ids.0: no webhook endpoint ${unknown} in this account`);

    const notAList = await saveRoutes('"store"');
    expect(notAList.status).toBe(400);
    expect(alertOf(notAList.text)).toBe('The routes are a JSON array of routes; nothing was saved. routes: not a JSON array of routes');

    // Without the CSRF token: refused before anything is read.
    const forged = await saveRoutes('[]', { csrf: null });
    expect(forged.status).toBe(403);

    expect(await apiRoutes()).toEqual(stored);
  });
});

describe('roles', () => {
  /** A member with `role`, invited by the owner through the team's JSON door and accepted, signed in. */
  async function member(role: 'viewer' | 'developer'): Promise<SignedIn> {
    const email = uniqueEmail(role);
    const invited = await dashboardRequest('POST', '/dashboard/team/invitations', {
      cookie: owner.cookie,
      csrf: owner.csrf,
      body: { email, role },
    });
    expect(invited.status).toBe(201);
    const token = new URL(invited.body.link).searchParams.get('token');
    const accepted = await dashboardRequest('POST', '/dashboard/accept-invitation', { body: { token, password: DASHBOARD_PASSWORD } });
    expect(accepted.status).toBe(200);
    return signIn(email);
  }

  it('a viewer sees the routes without the form, and the action refuses them (403); a developer may save', async () => {
    const stored = [{ match: { recipient: 'billing' }, action: { type: 'store' } }];
    await putRoutes(stored);
    const [viewer, developer] = [await member('viewer'), await member('developer')];

    const seen = routesSection((await page(pathOf(inbox.id), viewer)).text);
    expect(rowsOf(seen).map((cells) => cells[1])).toEqual(['<code>billing</code>']);
    expect(textareaOf(seen)).toBeUndefined();
    expect(seen).not.toContain('/inbound-routes"');
    expect(seen).not.toContain('Save routes');
    expect(seen).toContain('<p class="muted">Your role (viewer) cannot change the routes: owners, admins and developers can.</p>');

    const refused = await saveRoutes('[]', { who: viewer });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('<h1>Not allowed</h1>');
    expect(refused.text).toContain('Your dashboard role (viewer) is read-only');
    expect(await apiRoutes()).toEqual(stored);

    expect(textareaOf(routesSection((await page(pathOf(inbox.id), developer)).text))).toBe(JSON.stringify(stored, null, 2));
    const saved = await saveRoutes(JSON.stringify([{ match: { recipient: 'dev' }, action: { type: 'store' } }]), { who: developer });
    expect(saved.status).toBe(303);
    expect(await apiRoutes()).toEqual([{ match: { recipient: 'dev' }, action: { type: 'store' } }]);
  });
});

describe('a domain that does not receive mail', () => {
  it('has no Routes section, and its action answers the 409 on the page, nothing saved', async () => {
    const created = await api('POST', '/domains', { key: account.key, body: { name: uniqueDomain() } });
    expect([200, 201]).toContain(created.status);
    const id = created.body.domain.id as string;
    expect(created.body.domain.inbound_enabled).toBe(false);

    const shown = await page(pathOf(id));
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('<h2 id="records-heading">DNS records</h2>');
    expect(shown.text).not.toContain('id="routes-heading"');
    expect(shown.text).not.toContain('name="routes"');

    const refused = await saveRoutes(JSON.stringify([{ match: { recipient: '*' }, action: { type: 'store' } }]), { domainId: id });
    expect(refused.status).toBe(409);
    expect(alertOf(refused.text)).toContain(`Domain ${id} does not receive mail, so it has no routes.`);
    expect(refused.text).not.toContain('id="routes-heading"');
    expect(await apiRoutes(id)).toEqual([]);
  });
});
