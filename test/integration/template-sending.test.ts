/**
 * Sending with a template (docs/templates.md) and managed unsubscribe (spec rule 10; docs/tracking.md),
 * end to end on the local cloud: POST /emails, the batch and a scheduled send by alias; the delivered MIME
 * (escaping, List-Unsubscribe headers inside the DKIM h= list, verified against the DNS emulator); the
 * one-click POST of the delivered link, with no API key or cookie, and what it blocks afterwards.
 */
import { simpleParser } from 'mailparser';
import { verifyDkim } from '../support/mailauth-dkim';
import { localResolver } from './harness/dns';
import { verifiedDomain } from './harness/domains';
import { createSmtpCredential, queuedId, transport } from './harness/smtp';
import { api, newAccount, sesMessagesFor, stack, waitForStatus, type TestAccount } from './harness/stack';

interface Delivered {
  raw: string;
  headers: Map<string, string>;
  subject: string;
  html: string;
  text: string;
}

async function delivered(account: TestAccount, id: string): Promise<Delivered> {
  await waitForStatus(account, id, 'delivered');
  const [message] = await sesMessagesFor(id);
  const parsed = await simpleParser(Buffer.from(message!.raw, 'utf8'));
  const headers = new Map<string, string>();
  for (const line of parsed.headerLines)
    headers.set(
      line.key,
      line.line
        .slice(line.line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim(),
    );
  return {
    raw: message!.raw,
    headers,
    subject: parsed.subject ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
    text: parsed.text ?? '',
  };
}

async function template(account: TestAccount, body: Record<string, unknown>, publish = true) {
  const created = await api('POST', '/templates', { key: account.key, body });
  expect(created.status).toBe(201);
  if (publish) expect((await api('POST', `/templates/${body.alias}/publish`, { key: account.key })).status).toBe(200);
  return created.body.template;
}

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe('sending with a template', () => {
  let account: TestAccount;
  let domain: string;
  const welcome = unique('welcome');
  const receipt = unique('receipt');

  beforeAll(async () => {
    account = await newAccount({ plan: 'pro', paymentMethod: true });
    domain = (await verifiedDomain(account)).name;
    await template(account, {
      alias: welcome,
      name: 'Welcome',
      from: `News <news@${domain}>`,
      subject: 'Hi {{name}}, your {{plan}} plan',
      html: '<p>Hello {{ name }}</p><p><a href="{{unsubscribe_url}}">Unsubscribe</a></p>',
      text: 'Hello {{name}}. Unsubscribe: {{unsubscribe_url}}',
      category: 'product',
      variables: [
        { key: 'name', type: 'string' },
        { key: 'plan', type: 'string', fallback_value: 'free' },
      ],
    });
    await template(account, {
      alias: receipt,
      name: 'Receipt',
      subject: 'Receipt {{number}}',
      text: 'Total: {{total}}',
      variables: [
        { key: 'number', type: 'number' },
        { key: 'total', type: 'string' },
      ],
    });
  });

  it('renders the published version: HTML-escaped in html, plain in text and subject, fallbacks applied', async () => {
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { to: 'ann@example.org', template: { id: welcome, variables: { name: '<Ann & "Bob">' } } },
    });
    expect(sent.status).toBe(200);
    const message = await delivered(account, sent.body.id);
    expect(message.subject).toBe('Hi <Ann & "Bob">, your free plan');
    expect(message.html).toContain('<p>Hello &lt;Ann &amp; &quot;Bob&quot;&gt;</p>');
    expect(message.html).not.toContain('<Ann');
    expect(message.text).toContain('Hello <Ann & "Bob">.');
    expect(message.headers.get('from')).toBe(`News <news@${domain}>`);
    const email = (await api('GET', `/emails/${sent.body.id}`, { key: account.key })).body.email;
    expect(email.subject).toBe('Hi <Ann & "Bob">, your free plan');
  });

  it('adds one-click List-Unsubscribe headers inside the DKIM h= list; the signature verifies against DNS', async () => {
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { to: 'dkim@example.org', template: { id: welcome, variables: { name: 'Dee' } } },
    });
    expect(sent.status).toBe(200);
    const message = await delivered(account, sent.body.id);
    const linksBase = stack().info.env.LINKS_BASE_URL!;
    const header = message.headers.get('list-unsubscribe')!;
    expect(header).toMatch(/^<[^>]+>$/);
    const url = header.slice(1, -1);
    expect(url.startsWith(`${linksBase}/unsubscribe/`)).toBe(true);
    expect(message.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // {{unsubscribe_url}} became the same link in html (as an attribute) and text.
    expect(message.html).toContain(`href="${url}"`);
    expect(message.text).toContain(`Unsubscribe: ${url}`);
    expect(message.html + message.text + message.subject).not.toContain('{{');

    const unfolded = message.raw.replace(/\r\n[ \t]+/g, ' ');
    const signature = /^DKIM-Signature: (.*)$/m.exec(unfolded)![1]!;
    const signed = /h=([^;]+);/
      .exec(signature)![1]!
      .split(':')
      .map((name) => name.trim().toLowerCase());
    expect(signed).toEqual(expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post', 'from', 'subject']));
    const resolver = localResolver();
    const results = await verifyDkim(Buffer.from(message.raw, 'utf8'), (name) => resolver.resolveTxt(name));
    expect(results.find((r) => r.domain === domain)?.status).toBe('pass');
  });

  it('one-click POST of the delivered link (no key, no cookie) opts the address out of product mail only', async () => {
    const address = `oneclick-${Date.now()}@example.org`;
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { to: address, template: { id: welcome, variables: { name: 'Oli' } } },
    });
    const message = await delivered(account, sent.body.id);
    const url = message.headers.get('list-unsubscribe')!.slice(1, -1);
    // RFC 8058: a POST with this body, nothing else; answered 200 without a redirect or a cookie.
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
      redirect: 'manual',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();

    const product = await api('POST', '/emails', {
      key: account.key,
      body: { to: address, template: { id: welcome, variables: { name: 'Oli' } } },
    });
    expect(product.status).toBe(422);
    expect(product.body.error).toMatchObject({
      code: 'validation_error',
      details: { category_unsubscribed: [address], category: 'product', email_id: expect.stringMatching(/^msg_/) },
    });
    // The template's category is inherited unless overridden: the same template sent as transactional passes.
    const transactional = await api('POST', '/emails', {
      key: account.key,
      body: { to: address, category: 'transactional', template: { id: welcome, variables: { name: 'Oli' } } },
    });
    expect(transactional.status).toBe(200);
    const plain = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${domain}`, to: address, subject: 'Receipt', text: 'Paid' },
    });
    expect(plain.status).toBe(200);
  });

  it('a resend keeps managed unsubscribe, with a link of its own (bound to the new email)', async () => {
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { to: 'resend@example.org', template: { id: welcome, variables: { name: 'Rae' } } },
    });
    const first = (await delivered(account, sent.body.id)).headers.get('list-unsubscribe')!;
    const again = await api('POST', `/emails/${sent.body.id}/resend`, { key: account.key });
    expect(again.status).toBe(200);
    const message = await delivered(account, again.body.id);
    const second = message.headers.get('list-unsubscribe')!;
    expect(second).toMatch(/\/unsubscribe\//);
    expect(second).not.toBe(first);
    expect(message.html).toContain(`href="${second.slice(1, -1)}"`);
  });

  it('unsubscribe: false overrides the template: no List-Unsubscribe, the placeholder left alone', async () => {
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { to: 'nolink@example.org', unsubscribe: false, template: { id: welcome, variables: { name: 'Ned' } } },
    });
    expect(sent.status).toBe(200);
    const message = await delivered(account, sent.body.id);
    expect(message.headers.has('list-unsubscribe')).toBe(false);
    expect(message.headers.has('list-unsubscribe-post')).toBe(false);
  });

  it('managed unsubscribe on a plain send (unsubscribe: true) with {{unsubscribe_url}} in its own html', async () => {
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: `a@${domain}`,
        to: 'plain@example.org',
        subject: 'Digest',
        html: '<a href="{{unsubscribe_url}}">stop</a>',
        unsubscribe: true,
        category: 'newsletter',
      },
    });
    expect(sent.status).toBe(200);
    const message = await delivered(account, sent.body.id);
    const url = message.headers.get('list-unsubscribe')!.slice(1, -1);
    expect(message.html).toContain(`href="${url}"`);
  });

  it("a template's track_opens and track_clicks decide its sends' tracking over the domain's; a send's own win over the template's", async () => {
    const tracking = await verifiedDomain(account, { open_tracking: true, click_tracking: true });
    const reset = unique('reset');
    const created = await template(account, {
      alias: reset,
      name: 'Password reset',
      from: `Security <security@${tracking.name}>`,
      subject: 'Reset your password',
      html: '<html><body><p><a href="https://shop.example/reset">Reset</a></p></body></html>',
      track_opens: false,
      track_clicks: false,
    });
    expect(created).toMatchObject({ track_opens: false, track_clicks: false });
    const links = stack().info.env.LINKS_BASE_URL!;
    const trackingOf = async (body: Record<string, unknown>) => {
      const sent = await api('POST', '/emails', { key: account.key, body: { to: 'ann@example.org', template: { id: reset }, ...body } });
      expect(sent.status).toBe(200);
      const { html } = await delivered(account, sent.body.id);
      const email = (await api('GET', `/emails/${sent.body.id}`, { key: account.key })).body.email;
      return {
        pixel: html.includes(`${links}/t/open/`),
        clicks: html.includes(`${links}/t/click/`),
        record: [email.track_opens, email.track_clicks],
      };
    };
    expect(await trackingOf({})).toEqual({ pixel: false, clicks: false, record: [false, false] });
    expect(await trackingOf({ track_opens: true })).toEqual({ pixel: true, clicks: false, record: [true, false] });
    // Back to the domain's settings: null on the template (a PATCH, then a publish).
    const patched = await api('PATCH', `/templates/${reset}`, { key: account.key, body: { track_opens: null, track_clicks: null } });
    expect(patched.body.template).toMatchObject({ track_opens: null, track_clicks: null, has_unpublished_changes: true });
    expect((await api('POST', `/templates/${reset}/publish`, { key: account.key })).status).toBe(200);
    expect(await trackingOf({})).toEqual({ pixel: true, clicks: true, record: [null, null] });
    const bad = await api('PATCH', `/templates/${reset}`, { key: account.key, body: { track_clicks: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toEqual([{ field: 'track_clicks', message: 'track_clicks must be true, false or null' }]);
  });

  it('refuses what cannot be rendered with a 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ to: 'x@example.org', template: { id: welcome, variables: {} } }, 'template.variables.name'],
      [{ to: 'x@example.org', template: { id: 'no-such-template' } }, 'template.id'],
      [{ to: 'x@example.org', template: { id: welcome, variables: { name: 'A' } }, html: '<p>x</p>' }, 'html'],
      [{ to: 'x@example.org', template: { id: 'Not An Alias' } }, 'template.id'],
      [{ to: 'x@example.org', template: { id: receipt, variables: { number: 7 } } }, 'template.variables.total'],
      [{ to: 'x@example.org', template: { id: receipt, variables: { number: 7, total: { amount: 5 } } } }, 'template.variables.total'],
      // No from anywhere: the receipt template has no default from.
      [{ to: 'x@example.org', template: { id: receipt, variables: { number: 7, total: '5' } } }, 'from'],
    ];
    for (const [body, field] of cases) {
      const response = await api('POST', '/emails', { key: account.key, body });
      expect({ body, status: response.status, code: response.body.error?.code }).toEqual({ body, status: 400, code: 'validation_error' });
      expect(response.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const draftOnly = unique('draft');
    await template(account, { alias: draftOnly, name: 'Draft', subject: 'S', text: 'T' }, false);
    const unpublished = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${domain}`, to: 'x@example.org', template: { id: draftOnly } },
    });
    expect(unpublished.status).toBe(400);
    expect(unpublished.body.error.message).toMatch(/no published version/);
  });

  it('sends by alias in a batch, each item rendered with its own variables', async () => {
    const batch = await api('POST', '/emails/batch', {
      key: account.key,
      body: [
        { from: `billing@${domain}`, to: 'b1@example.org', template: { id: receipt, variables: { number: 1, total: '$5' } } },
        { from: `billing@${domain}`, to: 'b2@example.org', template: { id: receipt, variables: { number: 2, total: '$7' } } },
        { from: `billing@${domain}`, to: 'b3@example.org', template: { id: receipt, variables: { number: 3 } } },
      ],
    });
    expect(batch.status).toBe(200);
    const [first, second, third] = batch.body.data;
    expect(third).toMatchObject({ status: 'failed', error: { code: 'validation_error' } });
    const one = await delivered(account, first.id);
    const two = await delivered(account, second.id);
    expect([one.subject, one.text.trim()]).toEqual(['Receipt 1', 'Total: $5']);
    expect([two.subject, two.text.trim()]).toEqual(['Receipt 2', 'Total: $7']);
  });

  it('a scheduled send uses the version published when it was accepted, not a later one', async () => {
    const alias = unique('later');
    await template(account, { alias, name: 'Later', from: `a@${domain}`, subject: 'Version one', text: 'one' });
    const at = new Date(Date.now() + 3000).toISOString();
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { to: 'later@example.org', scheduled_at: at, template: { id: alias } },
    });
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('scheduled');
    expect((await api('PATCH', `/templates/${alias}`, { key: account.key, body: { subject: 'Version two', text: 'two' } })).status).toBe(
      200,
    );
    expect((await api('POST', `/templates/${alias}/publish`, { key: account.key })).body.template.published_version).toBe(2);
    const message = await delivered(account, sent.body.id);
    expect(message.subject).toBe('Version one');
    expect(message.text.trim()).toBe('one');
    // A new send now uses version two.
    const now = await api('POST', '/emails', { key: account.key, body: { to: 'later@example.org', template: { id: alias } } });
    expect((await delivered(account, now.body.id)).subject).toBe('Version two');
  });

  it('a deleted template stops sends at once; one re-created under its alias sends its own content', async () => {
    const alias = unique('again');
    await template(account, { alias, name: 'First', from: `a@${domain}`, subject: 'First life', text: 'one' });
    const first = await api('POST', '/emails', { key: account.key, body: { to: 'again@example.org', template: { id: alias } } });
    expect((await delivered(account, first.body.id)).subject).toBe('First life');
    expect((await api('DELETE', `/templates/${alias}`, { key: account.key })).status).toBe(200);
    const gone = await api('POST', '/emails', { key: account.key, body: { to: 'again@example.org', template: { id: alias } } });
    expect(gone.status).toBe(400);
    expect(gone.body.error.details.fields[0].field).toBe('template.id');
    // Same alias, same version number 1: the new template's content, not the old one a process may hold.
    await template(account, { alias, name: 'Second', from: `a@${domain}`, subject: 'Second life', text: 'two' });
    const second = await api('POST', '/emails', { key: account.key, body: { to: 'again@example.org', template: { id: alias } } });
    expect((await delivered(account, second.body.id)).subject).toBe('Second life');
  });

  it('answers 401 before a template problem', async () => {
    const response = await api('POST', '/emails', {
      key: 'svc_not-a-real-key-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      body: { to: 'x@example.org', template: { id: 'no-such-template' } },
    });
    expect(response.status).toBe(401);
  });

  it("the SMTP relay: X-Service-Unsubscribe: true adds the signed List-Unsubscribe fields (replacing the client's), DKIM-covered", async () => {
    const credential = await createSmtpCredential(account);
    const info = await transport(credential.password).sendMail({
      from: `relay@${domain}`,
      to: 'relayed@example.org',
      subject: 'Relayed digest',
      text: 'Hello',
      headers: { 'X-Service-Unsubscribe': 'true', 'X-Service-Category': 'newsletter', 'List-Unsubscribe': '<https://client.example/u>' },
    });
    const id = queuedId(info.response);
    const message = await delivered(account, id);
    expect(message.headers.get('list-unsubscribe')).toMatch(
      new RegExp(`^<${stack().info.env.LINKS_BASE_URL!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/unsubscribe/[^>]+>$`),
    );
    expect(message.raw).not.toContain('client.example');
    expect(message.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(message.raw).not.toMatch(/^X-Service-Unsubscribe/im);
    const resolver = localResolver();
    const results = await verifyDkim(Buffer.from(message.raw, 'utf8'), (name) => resolver.resolveTxt(name));
    expect(results.find((r) => r.domain === domain)?.status).toBe('pass');
  });
});
