/**
 * Open and click tracking through the whole pipeline (docs/tracking.md): a domain with open_tracking and
 * click_tracking on (PATCH /domains/{id}); the message as SES received it carries the pixel and rewritten
 * links (html and text) but never rewrites mailto:, tel: or the unsubscribe link; the pixel and a link
 * taken from that message produce email.opened / email.clicked once each, with no key and no cookie.
 */
import { simpleParser } from 'mailparser';
import { verifiedDomain } from './harness/domains';
import { webhookInbox } from './harness/webhook-inbox';
import { api, newAccount, sesMessagesFor, stack, waitFor, waitForStatus } from './harness/stack';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

// The tests run at once (`it.concurrent`), each on an account and domain of its own: the first one's wait for a
// reader's click (10 s after delivery) overlaps the others.
describe('tracking in sent mail', () => {
  it.concurrent('adds the pixel and rewrites links when the domain asks; the pixel and a rewritten link each make one event', async () => {
    const account = await newAccount({ plan: 'pro', paymentMethod: true });
    const domain = await verifiedDomain(account, { open_tracking: true, click_tracking: true });
    const received = await webhookInbox(account, ['email.opened', 'email.clicked']);
    const target = 'https://shop.example/offer?a=1&b=2';
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: `a@${domain.name}`,
        to: 'reader@example.org',
        subject: 'Tracked',
        unsubscribe: true,
        category: 'product',
        html: `<html><body><p><a href="https://shop.example/offer?a=1&amp;b=2">Offer</a> <a href="mailto:help@example.org">Mail</a> <a href="tel:+15551234">Call</a> <a href="{{unsubscribe_url}}">Unsubscribe</a></p></body></html>`,
        text: `Offer: ${target} Unsubscribe: {{unsubscribe_url}}`,
      },
    });
    expect(sent.status).toBe(200);
    const email = await waitForStatus(account, sent.body.id, 'delivered');
    const [message] = await sesMessagesFor(sent.body.id);
    const parsed = await simpleParser(Buffer.from(message!.raw, 'utf8'));
    const html = parsed.html as string;
    const text = parsed.text!;
    const base = stack().info.env.LINKS_BASE_URL!;

    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'));
    const unsubscribe = /^List-Unsubscribe: <([^>]+)>/m.exec(message!.raw.replace(/\r\n[ \t]+/g, ' '))![1]!;
    expect(hrefs).toHaveLength(4);
    expect(hrefs[0]!.startsWith(`${base}/t/click/`)).toBe(true);
    expect(hrefs.slice(1)).toEqual(['mailto:help@example.org', 'tel:+15551234', unsubscribe]);
    expect(unsubscribe.startsWith(`${base}/unsubscribe/`)).toBe(true);
    expect(html).not.toContain('shop.example');
    const pixel = /<img[^>]+src="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    expect(pixel.startsWith(`${base}/t/open/`)).toBe(true);
    // Text: the link rewritten, the unsubscribe link left as it is.
    const textLinks = text.match(/https?:\/\/\S+/g)!;
    expect(textLinks[0]!.startsWith(`${base}/t/click/`)).toBe(true);
    expect(textLinks[1]).toBe(unsubscribe);
    expect(text).not.toContain('shop.example');

    // The open: a 1x1 GIF, one email.opened.
    const opened = await fetch(pixel, { headers: { 'user-agent': BROWSER } });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toBe('image/gif');
    expect(opened.headers.get('set-cookie')).toBeNull();
    // A click within seconds of delivery looks like a link scanner's: wait until it would count as a reader's.
    const wait = Date.parse(email.delivered_at) + 10_500 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const clicked = await fetch(hrefs[0]!, { redirect: 'manual', headers: { 'user-agent': BROWSER } });
    expect(clicked.status).toBe(302);
    expect(clicked.headers.get('location')).toBe(target);

    const events = await waitFor(
      async () => {
        const all = await received();
        return all.some((e) => e.type === 'email.opened') && all.some((e) => e.type === 'email.clicked') ? all : undefined;
      },
      'email.opened and email.clicked',
      60_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const settled = await received();
    expect(settled.filter((e) => e.type === 'email.opened')).toHaveLength(1);
    expect(settled.filter((e) => e.type === 'email.clicked')).toHaveLength(1);
    expect(events.find((e) => e.type === 'email.clicked')!.data).toMatchObject({
      email_id: sent.body.id,
      link: target,
      machine: false,
      first: true,
    });
    expect(events.find((e) => e.type === 'email.opened')!.data).toMatchObject({ email_id: sent.body.id, machine: false, first: true });
    const after = (await api('GET', `/emails/${sent.body.id}`, { key: account.key })).body.email;
    expect(after).toMatchObject({ status: 'delivered', last_event: 'clicked' });
  }, 120_000);

  it.concurrent('a domain without tracking sends links and html untouched', async () => {
    const account = await newAccount({ plan: 'pro', paymentMethod: true });
    const { name } = await verifiedDomain(account);
    const html = '<p><a href="https://shop.example/x">x</a></p>';
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${name}`, to: 'reader@example.org', subject: 'Plain', html },
    });
    await waitForStatus(account, sent.body.id, 'delivered');
    const parsed = await simpleParser(Buffer.from((await sesMessagesFor(sent.body.id))[0]!.raw, 'utf8'));
    expect(parsed.html).toContain('href="https://shop.example/x"');
    expect(parsed.html).not.toContain('<img');
  });

  it.concurrent('a send\'s track_opens and track_clicks win over its domain\'s settings, on every door (docs/tracking.md, "Per message")', async () => {
    const account = await newAccount({ plan: 'pro', paymentMethod: true });
    const tracked = await verifiedDomain(account, { open_tracking: true, click_tracking: true });
    const plain = await verifiedDomain(account);
    const html = '<html><body><p><a href="https://shop.example/y">y</a></p></body></html>';
    const base = stack().info.env.LINKS_BASE_URL!;
    const send = async (from: string, extra: Record<string, unknown>) => {
      const sent = await api('POST', '/emails', {
        key: account.key,
        body: { from, to: 'reader@example.org', subject: 'Per message', html, ...extra },
      });
      expect(sent.status).toBe(200);
      return sent.body.id as string;
    };
    /** Whether the message SES got has the open pixel, and whether its link was rewritten. */
    const trackingOf = async (id: string) => {
      await waitForStatus(account, id, 'delivered');
      const parsed = await simpleParser(Buffer.from((await sesMessagesFor(id))[0]!.raw, 'utf8'));
      const body = parsed.html as string;
      return { pixel: body.includes(`${base}/t/open/`), clicks: body.includes(`${base}/t/click/`) && !body.includes('shop.example/y') };
    };

    // A password reset from the tracking domain: no pixel, no rewritten link; the record says so.
    const reset = await send(`a@${tracked.name}`, { track_opens: false, track_clicks: false });
    // A receipt from a domain without tracking, tracked for this one email.
    const receipt = await send(`a@${plain.name}`, { track_opens: true, track_clicks: true });
    // Only clicks off: the domain's open tracking still applies.
    const half = await send(`a@${tracked.name}`, { track_clicks: false });
    // Neither given: the domain's settings, and null on the record.
    const byDomain = await send(`a@${tracked.name}`, {});
    expect(await trackingOf(reset)).toEqual({ pixel: false, clicks: false });
    expect(await trackingOf(receipt)).toEqual({ pixel: true, clicks: true });
    expect(await trackingOf(half)).toEqual({ pixel: true, clicks: false });
    expect(await trackingOf(byDomain)).toEqual({ pixel: true, clicks: true });
    const record = async (id: string) => (await api('GET', `/emails/${id}`, { key: account.key })).body.email;
    expect(await record(reset)).toMatchObject({ track_opens: false, track_clicks: false });
    expect(await record(half)).toMatchObject({ track_opens: null, track_clicks: false });
    expect(await record(byDomain)).toMatchObject({ track_opens: null, track_clicks: null });

    // The provider doors' per-message switches: SendGrid's tracking_settings, Postmark's TrackOpens / TrackLinks, Mailgun's o:tracking*.
    const sendgrid = await api('POST', '/v3/mail/send', {
      key: account.key,
      body: {
        personalizations: [{ to: [{ email: 'reader@example.org' }] }],
        from: { email: `a@${tracked.name}` },
        subject: 'SendGrid door',
        content: [{ type: 'text/html', value: html }],
        tracking_settings: { open_tracking: { enable: false }, click_tracking: { enable: false } },
      },
    });
    expect(sendgrid.status).toBe(202);
    const sendgridId = sendgrid.headers.get('x-message-id')!;
    const postmark = await api('POST', '/email', {
      headers: { 'X-Postmark-Server-Token': account.key, accept: 'application/json' },
      body: {
        From: `a@${plain.name}`,
        To: 'reader@example.org',
        Subject: 'Postmark door',
        HtmlBody: html,
        TrackOpens: true,
        TrackLinks: 'HtmlOnly',
      },
    });
    expect(postmark.status).toBe(200);
    // Mailgun's o:tracking (both) with o:tracking-opens over it.
    const mailgun = await api('POST', `/v3/${tracked.name}/messages`, {
      headers: {
        authorization: `Basic ${Buffer.from(`api:${account.key}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      rawBody: new URLSearchParams({
        from: `a@${tracked.name}`,
        to: 'reader@example.org',
        subject: 'Mailgun door',
        html,
        'o:tracking': 'no',
        'o:tracking-opens': 'yes',
      }).toString(),
    });
    expect(mailgun.status).toBe(200);
    const mailgunId = /<(msg_[^@>]+)@/.exec(mailgun.body.id as string)![1]!;
    expect(await trackingOf(sendgridId)).toEqual({ pixel: false, clicks: false });
    expect(await trackingOf(postmark.body.MessageID)).toEqual({ pixel: true, clicks: true });
    expect(await trackingOf(mailgunId)).toEqual({ pixel: true, clicks: false });
    // Refused as the type says, before anything is sent.
    const bad = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${tracked.name}`, to: 'reader@example.org', subject: 'x', html, track_opens: 'no' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toEqual([{ field: 'track_opens', message: 'track_opens must be a boolean' }]);
  }, 120_000);
});
