/**
 * A received message's links are downloads (docs/inbound.md, "Downloads"; docs/dashboard.md): a stranger's
 * HTML body too large to inline, its text body, its attachments (an HTML page and an SVG among them) and
 * the raw message are presigned URLs on the bucket's origin, so each is fetched from the local S3 and must
 * answer `Content-Disposition: attachment` with a type a browser does not render as a page. The dashboard
 * links to the same URLs.
 */
import { dashboardRequest, newDashboardUser, signIn } from './harness/dashboard';
import { mxTransport, receivedIds, receivingDomain, senderDomain, waitForReceived } from './harness/inbound';
import { api, newAccount, type TestAccount } from './harness/stack';

jest.setTimeout(120_000);

/** What a browser would do with the link: the disposition and the type it is served with. */
async function served(url: string): Promise<{ status: number; disposition: string; type: string; body: Buffer }> {
  const response = await fetch(url);
  return {
    status: response.status,
    disposition: response.headers.get('content-disposition') ?? '',
    type: response.headers.get('content-type') ?? '',
    body: Buffer.from(await response.arrayBuffer()),
  };
}

const RENDERED = /html|xml|svg|script/i;

describe('links to received content', () => {
  let account: TestAccount;
  let id: string;
  // 2.9 MB of quotes: fits by its stored size but not once escaped, so the answer gives links (bodies and attachments).
  const page = `<html><body><script>document.title = 'stranger code'</script>${'"'.repeat(2_900_000)}</body></html>`;
  const attachments = [
    { filename: 'page.html', content: Buffer.alloc(1_500_000, '<script>alert(1)</script>'), contentType: 'text/html' },
    {
      filename: 'logo.svg',
      content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      contentType: 'image/svg+xml',
    },
    { filename: 'report.pdf', content: Buffer.from('%PDF-1.4 tiny'), contentType: 'application/pdf' },
  ];

  beforeAll(async () => {
    account = await newAccount({ plan: 'pro' });
    const inbox = await receivingDomain(account);
    const sender = await senderDomain();
    const info = await mxTransport().sendMail({
      envelope: { from: `stranger@${sender.name}`, to: [inbox.address('big')] },
      from: `stranger@${sender.name}`,
      to: inbox.address('big'),
      subject: 'Large html',
      html: page,
      text: 'the text version',
      attachments,
    });
    id = receivedIds(info.response)[0]!;
    await waitForReceived(account, id, 60_000);
  });

  it('the API gives every link as a download with an inert type, content whole', async () => {
    const response = await api('GET', `/received-emails/${id}`, { key: account.key });
    expect(response.status).toBe(200);
    const email = response.body.received_email;
    expect(email.html).toBeNull();
    expect(email.html_url).toMatch(/^https?:\/\//);

    const html = await served(email.html_url);
    expect(html.status).toBe(200);
    expect(html.disposition).toMatch(new RegExp(`^attachment; filename="${id}\\.html"`));
    expect(html.type).toBe('text/plain; charset=utf-8');
    expect(html.body.toString('utf8').trim()).toBe(page);

    const urls = [
      ...(email.text_url ? [[email.text_url, `${id}.txt`]] : []),
      [email.raw.download_url, `${id}.eml`],
      ...email.attachments.map((attachment: { download_url: string; filename: string }) => [attachment.download_url, attachment.filename]),
    ] as [string, string][];
    expect(email.attachments.map((attachment: { download_url: string | null }) => attachment.download_url)).toEqual([
      expect.stringMatching(/^http/),
      expect.stringMatching(/^http/),
      expect.stringMatching(/^http/),
    ]);
    for (const [url, name] of urls) {
      const file = await served(url);
      expect({ name, status: file.status, disposition: file.disposition }).toEqual({
        name,
        status: 200,
        disposition: expect.stringMatching(new RegExp(`^attachment; filename="${name.replace(/\./g, '\\.')}"`)),
      });
      expect({ name, type: file.type }).toEqual({ name, type: expect.not.stringMatching(RENDERED) });
    }
    // An inert type is kept; an active one is served as bytes.
    const types = Object.fromEntries(
      await Promise.all(
        email.attachments.map(async (attachment: { download_url: string; filename: string }) => [
          attachment.filename,
          (await served(attachment.download_url)).type,
        ]),
      ),
    );
    expect(types).toEqual({
      'page.html': 'application/octet-stream',
      'logo.svg': 'application/octet-stream',
      'report.pdf': 'application/pdf',
    });
  });

  it('the dashboard links the large HTML body as a download of that URL, never a page', async () => {
    const user = await newDashboardUser(account);
    const session = await signIn(user.email, user.password);
    const pageAnswer = await dashboardRequest('GET', `/dashboard/received/${id}`, { cookie: session.cookie });
    expect(pageAnswer.status).toBe(200);
    const html = pageAnswer.text;
    const link = /The HTML body[^<]*<a href="([^"]+)"/.exec(html)?.[1];
    expect(link).toBeDefined();
    const file = await served(link!.replace(/&amp;/g, '&'));
    expect(file.disposition).toMatch(/^attachment;/);
    expect(file.type).not.toMatch(RENDERED);
  });
});
