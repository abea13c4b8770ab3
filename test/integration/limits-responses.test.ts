/**
 * Lambda's 6 MB synchronous response limit (docs/deploy.md, "AWS limits") on the answers that can grow,
 * through the local gateway, which refuses a handler result over 6,291,556 bytes with API Gateway's bare
 * 500 as AWS does (localstack/cloud/lambda/lambda-limits.ts). Each answer here is measured as Lambda counts it
 * (shared/domain/lambda-payload.ts: the body JSON-escaped once more).
 *
 * - A received email whose bodies and attachments fit by their stored sizes but not once escaped (2.9 MB
 *   of quotes, a 1.5 MB attachment): answered with links instead of inline content.
 * - A received email that fits: inline (the budget does not push content to links for nothing).
 * - A dashboard email page whose preview would not fit: the page, with a notice in the preview's place.
 * - The OpenAPI document and the reference page: fixed, measured.
 */
import { jsonPayloadBytes, RESPONSE_BODY_BUDGET_BYTES, textPayloadBytes } from '#shared/domain/lambda-payload';
import { dashboardRequest, newDashboardUser, signIn } from './harness/dashboard';
import { mxTransport, receivedIds, receivingDomain, senderDomain, waitForReceived } from './harness/inbound';
import { api, newAccount, stack, type TestAccount } from './harness/stack';

jest.setTimeout(120_000);

let account: TestAccount;
let inbox: Awaited<ReturnType<typeof receivingDomain>>;
let sender: Awaited<ReturnType<typeof senderDomain>>;

beforeAll(async () => {
  account = await newAccount({ plan: 'pro' });
  inbox = await receivingDomain(account);
  sender = await senderDomain();
});

async function receive(content: { html: string; attachment: Buffer }): Promise<string> {
  const info = await mxTransport().sendMail({
    envelope: { from: `alice@${sender.name}`, to: [inbox.address('big')] },
    from: `alice@${sender.name}`,
    to: inbox.address('big'),
    subject: 'Large',
    html: content.html,
    attachments: [{ filename: 'data.bin', content: content.attachment, contentType: 'application/octet-stream' }],
  });
  const [id] = receivedIds(info.response);
  await waitForReceived(account, id!, 60_000);
  return id!;
}

describe('GET /received-emails/{id} at the 6 MB limit', () => {
  it('answers links, not a gateway 500, when escaping takes inline content over the limit', async () => {
    const html = `<p>${'"'.repeat(2_900_000)}</p>`;
    const attachment = Buffer.alloc(1_500_000, 7);
    const id = await receive({ html, attachment });

    const response = await api('GET', `/received-emails/${id}`, { key: account.key });
    expect(response.status).toBe(200);
    expect(textPayloadBytes(response.text)).toBeLessThanOrEqual(RESPONSE_BODY_BUDGET_BYTES);
    const email = response.body.received_email;
    expect(email.html).toBeNull();
    expect(email.html_url).toMatch(/^https?:\/\//);
    expect(email.attachments[0]).toMatchObject({ content: null, size: 1_500_000 });
    expect(email.attachments[0].download_url).toMatch(/^https?:\/\//);

    // The links give the content whole.
    const body = await fetch(email.html_url);
    expect(body.status).toBe(200);
    expect((await body.text()).trim()).toBe(html);
    const file = Buffer.from(await (await fetch(email.attachments[0].download_url)).arrayBuffer());
    expect(file.equals(attachment)).toBe(true);
  });

  it('keeps content inline when the escaped answer fits', async () => {
    const html = `<p>${'a'.repeat(2_000_000)}</p>`;
    const id = await receive({ html, attachment: Buffer.alloc(100_000, 1) });
    const response = await api('GET', `/received-emails/${id}`, { key: account.key });
    expect(response.status).toBe(200);
    const email = response.body.received_email;
    expect(email.html.trim()).toBe(html);
    expect(email.html_url).toBeNull();
    expect(Buffer.from(email.attachments[0].content, 'base64').length).toBe(100_000);
    expect(jsonPayloadBytes(response.body)).toBeLessThanOrEqual(RESPONSE_BODY_BUDGET_BYTES);
  });
});

describe('dashboard email page at the 6 MB limit', () => {
  it('shows the page with a notice in place of a preview that would not fit', async () => {
    // 1.2 MB of quotes: &quot; in the frame's srcdoc makes about 7 MB of page.
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: 'Acme <hello@sandbox.mailservice.dev>',
        to: account.email,
        subject: 'Huge preview',
        html: `<p>${'"'.repeat(1_200_000)}</p>`,
      },
    });
    expect(sent.status).toBe(200);
    const session = await signIn((await newDashboardUser(account)).email);
    const page = await dashboardRequest('GET', `/dashboard/emails/${sent.body.id}`, { cookie: session.cookie });
    expect(page.status).toBe(200);
    expect(textPayloadBytes(page.text)).toBeLessThanOrEqual(RESPONSE_BODY_BUDGET_BYTES);
    expect(page.text).toMatch(
      /<section aria-labelledby="preview-heading" data-truncated="true">[\s\S]*Too large to show here: \d+\.\d MB on the page/,
    );
    expect(page.text).not.toContain('<iframe');
    // The rest of the page is there.
    expect(page.text).toContain(`<code>${sent.body.id}</code>`);
    expect(page.text).toMatch(/<h2 id="headers-heading">Headers<\/h2>/);
  });
});

describe('fixed documents', () => {
  it('the OpenAPI document and the reference page are far under the limit', async () => {
    for (const path of ['/openapi.json', '/reference']) {
      const response = await fetch(stack().apiUrl + path);
      expect(response.status).toBe(200);
      const bytes = textPayloadBytes(await response.text());
      // Measured 2026-11: about 0.6 MB; a tenth of the budget leaves room to grow and fails long before the limit.
      expect(bytes).toBeLessThan(RESPONSE_BODY_BUDGET_BYTES / 4);
    }
  });
});
