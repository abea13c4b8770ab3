/** code_changes: valid unified diffs from each provider's send to ours, for node-sdk (the same SDK, pointed at us), node, python, curl and smtp. */
import { codeChanges, unifiedDiff, type CodeChange } from '#shared/domain/imports/code-changes';
import { PROVIDERS, type ProviderName } from '#shared/domain/imports/source';

const BASE = 'https://mail-api.example.org';

/** Checks the text is one valid unified-diff hunk and answers its removed and added lines. */
function parseDiff(diff: string): { path: string; removed: string[]; added: string[]; context: string[] } {
  expect(diff.endsWith('\n')).toBe(true);
  const lines = diff.slice(0, -1).split('\n');
  const [minus, plus, hunk, ...body] = lines;
  const path = /^--- a\/(.+)$/.exec(minus!)?.[1];
  expect(path).toBeDefined();
  expect(plus).toBe(`+++ b/${path}`);
  const counts = /^@@ -1,(\d+) \+1,(\d+) @@$/.exec(hunk!);
  expect(counts).not.toBeNull();
  for (const line of body) expect(line[0]).toMatch(/^[ +-]$/);
  const removed = body.filter((line) => line.startsWith('-')).map((line) => line.slice(1));
  const added = body.filter((line) => line.startsWith('+')).map((line) => line.slice(1));
  const context = body.filter((line) => line.startsWith(' ')).map((line) => line.slice(1));
  expect(Number(counts![1])).toBe(context.length + removed.length);
  expect(Number(counts![2])).toBe(context.length + added.length);
  expect(removed.length).toBeGreaterThan(0);
  expect(added.length).toBeGreaterThan(0);
  return { path: path!, removed, added, context };
}

const byStack = (changes: CodeChange[]) => Object.fromEntries(changes.map((change) => [change.stack, change]));

describe('unifiedDiff', () => {
  it('counts context and removed lines for the old side, context and added for the new', () => {
    expect(
      unifiedDiff('f.txt', [
        [' ', 'a'],
        ['-', 'b'],
        ['+', 'c'],
        ['+', 'd'],
      ]),
    ).toBe('--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,3 @@\n a\n-b\n+c\n+d\n');
  });
});

describe('codeChanges', () => {
  const TEMPLATE_IDS: Record<ProviderName, string> = {
    sendgrid: 'd-0123456789abcdef0123456789abcdef',
    postmark: '1234567',
    mailgun: 'order.shipped',
  };

  it.each(PROVIDERS)('%s: node-sdk, node, python, curl and smtp, each a valid diff', (provider) => {
    const changes = codeChanges({
      provider,
      baseUrl: `${BASE}/`,
      templateMap: [
        { source_id: TEMPLATE_IDS[provider], alias: 'order-shipped' },
        { source_id: 'other', alias: 'other' },
      ],
    });
    expect(changes.map((change) => change.stack)).toEqual(['node-sdk', 'node', 'python', 'curl', 'smtp']);
    for (const change of changes) {
      parseDiff(change.diff);
      expect(change.label.length).toBeGreaterThan(10);
      expect(change.diff).not.toContain(`${BASE}//`);
      expect(change.diff).not.toContain("'other'");
    }
  });

  it.each([
    [
      'sendgrid',
      'sgMail.setApiKey(process.env.SENDGRID_API_KEY);',
      `client.setDefaultRequest('baseUrl', '${BASE}');`,
      "  templateId: 'd-0123456789abcdef0123456789abcdef',",
    ],
    [
      'postmark',
      'const client = new ServerClient(process.env.POSTMARK_SERVER_TOKEN);',
      "const client = new ServerClient(process.env.SERVICE_API_KEY, { requestHost: 'mail-api.example.org', useHttps: true });",
      '  TemplateId: 1234567,',
    ],
    [
      'mailgun',
      "const mg = new Mailgun(formData).client({ username: 'api', key: process.env.MAILGUN_API_KEY });",
      `const mg = new Mailgun(formData).client({ username: 'api', key: process.env.SERVICE_API_KEY, url: '${BASE}' });`,
      "  template: 'order.shipped',",
    ],
  ] as [ProviderName, string, string, string][])(
    '%s node-sdk: the same SDK and the same send (template id too), only its key and where it sends change',
    (provider, theirs, ours, templateLine) => {
      const change = byStack(
        codeChanges({ provider, baseUrl: BASE, templateMap: [{ source_id: TEMPLATE_IDS[provider], alias: 'order-shipped' }] }),
      )['node-sdk']!;
      const node = parseDiff(change.diff);
      expect(node.removed).toEqual([theirs]);
      expect(node.added).toContain(ours);
      expect(node.context).toContain(templateLine);
      expect(change.label).toContain('docs/compat.md');
    },
  );

  it.each([
    ['sendgrid', "import sgMail from '@sendgrid/mail';", 'await sgMail.send({', "  templateId: 'd-0123456789abcdef0123456789abcdef',"],
    ['postmark', "import { ServerClient } from 'postmark';", 'await client.sendEmailWithTemplate({', '  TemplateId: 1234567,'],
    ['mailgun', "import Mailgun from 'mailgun.js';", "await mg.messages.create('mg.example.com', {", "  template: 'order.shipped',"],
  ] as [ProviderName, string, string, string][])(
    '%s node: the SDK call and template id out, the resend SDK with our baseUrl and alias in',
    (provider, sdkImport, call, templateLine) => {
      const node = parseDiff(
        byStack(codeChanges({ provider, baseUrl: BASE, templateMap: [{ source_id: TEMPLATE_IDS[provider], alias: 'order-shipped' }] }))
          .node!.diff,
      );
      expect(node.removed).toEqual(expect.arrayContaining([sdkImport, call, templateLine]));
      expect(node.added).toEqual(
        expect.arrayContaining([
          "import { Resend } from 'resend';",
          `const resend = new Resend(process.env.SERVICE_API_KEY, { baseUrl: '${BASE}' });`,
          'const { data, error } = await resend.emails.send({',
          "  template: { id: 'order-shipped', variables: { name: 'Ada' } },",
        ]),
      );
    },
  );

  it('sends a Postmark template that has no numeric id by its alias', () => {
    const changes = byStack(
      codeChanges({ provider: 'postmark', baseUrl: BASE, templateMap: [{ source_id: 'welcome-v2', alias: 'welcome-v2' }] }),
    );
    expect(parseDiff(changes.node!.diff).removed).toContain("  TemplateAlias: 'welcome-v2',");
    expect(parseDiff(changes.python!.diff).removed).toContain("    TemplateAlias='welcome-v2',");
  });

  it('shows plain html sends when no template was imported', () => {
    for (const provider of PROVIDERS) {
      const changes = byStack(codeChanges({ provider, baseUrl: BASE, templateMap: [] }));
      const node = parseDiff(changes.node!.diff);
      expect([...node.added, ...node.context]).toEqual(expect.arrayContaining(["  subject: 'Hello',", "  html: '<p>Hello</p>',"]));
      expect(changes.node!.diff).not.toMatch(/template/i);
      expect(changes.curl!.diff).not.toMatch(/template/i);
    }
  });

  it.each(PROVIDERS)('%s python: resend (or requests) to our API with the key from the environment', (provider) => {
    const python = parseDiff(
      byStack(codeChanges({ provider, baseUrl: BASE, templateMap: [{ source_id: TEMPLATE_IDS[provider], alias: 'order-shipped' }] }))
        .python!.diff,
    );
    if (provider === 'mailgun') {
      expect(python.removed).toContain("    'https://api.mailgun.net/v3/mg.example.com/messages',");
      expect(python.added).toEqual(
        expect.arrayContaining([`    '${BASE}/emails',`, `    headers={'Authorization': f"Bearer {os.environ['SERVICE_API_KEY']}"},`]),
      );
    } else {
      expect(python.added).toEqual(
        expect.arrayContaining([
          'import resend',
          "resend.api_key = os.environ['SERVICE_API_KEY']",
          `resend.api_url = '${BASE}'`,
          'resend.Emails.send({',
        ]),
      );
    }
    const indent = provider === 'mailgun' ? '        ' : '    ';
    expect(python.added).toContain(`${indent}'template': {'id': 'order-shipped', 'variables': {'name': 'Ada'}},`);
  });

  it.each([
    ['sendgrid', 'https://api.sendgrid.com/v3/mail/send'],
    ['postmark', 'https://api.postmarkapp.com/email/withTemplate'],
    ['mailgun', 'https://api.mailgun.net/v3/mg.example.com/messages'],
  ] as [ProviderName, string][])(
    '%s curl: the provider endpoint out, POST /emails with a Bearer key and a JSON body in',
    (provider, endpoint) => {
      const curl = parseDiff(
        byStack(codeChanges({ provider, baseUrl: BASE, templateMap: [{ source_id: TEMPLATE_IDS[provider], alias: 'order-shipped' }] }))
          .curl!.diff,
      );
      expect(curl.removed[0]).toContain(endpoint);
      expect(curl.added[0]).toBe(`curl -X POST '${BASE}/emails' \\`);
      expect(curl.added).toContain('  -H "Authorization: Bearer $SERVICE_API_KEY" \\');
      const body = /^ {2}-d '(.*)'$/.exec(curl.added[curl.added.length - 1]!)![1]!;
      expect(JSON.parse(body)).toEqual({
        from: expect.any(String),
        to: ['user@example.com'],
        template: { id: 'order-shipped', variables: { name: 'Ada' } },
      });
    },
  );

  it.each([
    ['sendgrid', 'smtp.sendgrid.net', 'apikey'],
    ['postmark', 'smtp.postmarkapp.com', '<your Postmark server token>'],
    ['mailgun', 'smtp.mailgun.org', 'postmaster@mg.example.com'],
  ] as [ProviderName, string, string][])('%s smtp: host and user changed, the port kept', (provider, host, user) => {
    const smtp = parseDiff(
      byStack(codeChanges({ provider, baseUrl: BASE, templateMap: [], smtpHost: 'smtp.mail.example.org' })).smtp!.diff,
    );
    expect(smtp.removed).toEqual(expect.arrayContaining([`SMTP_HOST=${host}`, `SMTP_USER=${user}`]));
    expect(smtp.added).toEqual(expect.arrayContaining(['SMTP_HOST=smtp.mail.example.org', 'SMTP_USER=mailservice']));
    expect(smtp.context).toEqual(['SMTP_PORT=587']);
  });

  it('quotes ids and aliases so the snippets stay valid code', () => {
    const changes = byStack(
      codeChanges({ provider: 'sendgrid', baseUrl: "https://x.example/it's", templateMap: [{ source_id: "d-it's\\", alias: 'a' }] }),
    );
    expect(changes.node!.diff).toContain("templateId: 'd-it\\'s\\\\',");
    expect(changes.curl!.diff).toContain("curl -X POST 'https://x.example/it'\\''s/emails' \\");
  });

  it('is deterministic', () => {
    const input = { provider: 'mailgun' as const, baseUrl: BASE, templateMap: [{ source_id: 'welcome', alias: 'welcome' }] };
    expect(codeChanges(input)).toEqual(codeChanges(input));
  });
});
