/**
 * The SendGrid door's mapping: a mail/send body (SendGrid's schema) -> our send requests, one per
 * personalization, and what it refuses (SendGrid's 400 naming SendGrid's field). Each mapped request is
 * also run through the send core's own schema, so the mapping is known to produce what the core accepts.
 */
import { sendRequestSchema } from '#shared/domain/emails/send-request';
import { SendgridRequestError } from '#shared/doors/compat/sendgrid/errors';
import { mailSendSchema } from '#shared/doors/compat/sendgrid/request-schema';
import { tagPart } from '#shared/doors/compat/provider-tags';
import { flattenTemplateData, placeholderName, substitute, toSendRequests } from '#shared/doors/compat/sendgrid/to-send-requests';

const NOW = new Date('2030-01-01T00:00:00Z');
const FROM = { email: 'sender@example.com', name: 'Example Sender' };

/** A minimal valid body, with `extra` fields over it. */
function body(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    personalizations: [{ to: [{ email: 'to@example.net' }] }],
    from: FROM,
    subject: 'Hello',
    content: [{ type: 'text/plain', value: 'Hi' }],
    ...extra,
  };
}

function map(input: Record<string, unknown>, templateAlias?: string) {
  return toSendRequests(mailSendSchema.parse(input), { now: NOW, templateAlias });
}

/** The problems a refused body names ({field, message}), or a failure when it is not refused. */
function refusal(input: Record<string, unknown>): { field: string | null; message: string }[] {
  try {
    map(input);
  } catch (error) {
    if (error instanceof SendgridRequestError) return error.problems;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('SendGrid mail/send -> our send requests', () => {
  it('maps a plain send: from, to (with names), subject, text and html, one request', () => {
    const { requests, sandbox } = map(
      body({
        content: [
          { type: 'text/plain', value: 'Hi' },
          { type: 'text/html', value: '<p>Hi</p>' },
        ],
        personalizations: [{ to: [{ email: 'to@example.net', name: 'Ann Lee' }] }],
      }),
    );
    expect(sandbox).toBe(false);
    expect(requests).toEqual([{ from: FROM, to: ['Ann Lee <to@example.net>'], subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' }]);
    expect(sendRequestSchema.safeParse(requests[0]).success).toBe(true);
  });

  it('makes each personalization one email, with its own cc, bcc, subject, from, headers and send_at winning', () => {
    const { requests } = map(
      body({
        headers: { 'X-Shared': 'a', 'X-Over': 'top' },
        personalizations: [
          {
            to: [{ email: 'one@example.net' }],
            cc: [{ email: 'cc@example.net' }],
            bcc: [{ email: 'bcc@example.net' }],
            subject: 'First',
            headers: { 'X-Over': 'mine' },
          },
          { to: [{ email: 'two@example.net' }], from: { email: 'other@example.com' }, send_at: Date.parse('2030-01-02T00:00:00Z') / 1000 },
        ],
      }),
    );
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({
      from: FROM,
      to: ['one@example.net'],
      cc: ['cc@example.net'],
      bcc: ['bcc@example.net'],
      subject: 'First',
      headers: { 'X-Shared': 'a', 'X-Over': 'mine' },
    });
    expect(requests[0]).not.toHaveProperty('scheduled_at');
    expect(requests[1]).toMatchObject({
      from: { email: 'other@example.com' },
      to: ['two@example.net'],
      subject: 'Hello',
      scheduled_at: '2030-01-02T00:00:00.000Z',
    });
    for (const request of requests) expect(sendRequestSchema.safeParse(request).success).toBe(true);
  });

  it('sends now when send_at is now or past (as SendGrid does), and schedules a future one', () => {
    expect(map(body({ send_at: NOW.getTime() / 1000 })).requests[0]).not.toHaveProperty('scheduled_at');
    expect(map(body({ send_at: 1 })).requests[0]).not.toHaveProperty('scheduled_at');
    expect(map(body({ send_at: NOW.getTime() / 1000 + 60 })).requests[0]).toMatchObject({ scheduled_at: '2030-01-01T00:01:00.000Z' });
  });

  it('applies substitutions to subject, text and html per personalization', () => {
    const { requests } = map(
      body({
        subject: 'Hi -name-',
        content: [
          { type: 'text/plain', value: 'Dear -name- -name-full-' },
          { type: 'text/html', value: '<b>-name-</b>' },
        ],
        personalizations: [
          { to: [{ email: 'a@example.net' }], substitutions: { '-name-': 'Ann', '-name-full-': 'Ann Lee' } },
          { to: [{ email: 'b@example.net' }], substitutions: { '-name-': 'Bob', '-name-full-': 'Bob Ray' } },
        ],
      }),
    );
    expect(requests[0]).toMatchObject({ subject: 'Hi Ann', text: 'Dear Ann Ann Lee', html: '<b>Ann</b>' });
    expect(requests[1]).toMatchObject({ subject: 'Hi Bob', text: 'Dear Bob Bob Ray', html: '<b>Bob</b>' });
  });

  it('maps categories and custom_args to tags, personalization custom_args winning, with unsafe characters replaced', () => {
    const { requests } = map(
      body({
        categories: ['welcome', 'Password Reset'],
        custom_args: { user_id: '42', plan: 'a' },
        personalizations: [{ to: [{ email: 'a@example.net' }], custom_args: { plan: 'pro.v2' } }],
      }),
    );
    expect(requests[0]!.tags).toEqual([
      { name: 'category', value: 'welcome' },
      { name: 'category', value: 'Password_Reset' },
      { name: 'user_id', value: '42' },
      { name: 'plan', value: 'pro_v2' },
    ]);
    expect(sendRequestSchema.safeParse(requests[0]).success).toBe(true);
  });

  it('refuses more than 10 categories and custom_args together (each is a tag)', () => {
    const custom = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, 'v']));
    expect(refusal(body({ categories: ['a', 'b', 'c'], custom_args: custom }))).toEqual([
      expect.objectContaining({ field: 'custom_args', message: expect.stringContaining('At most 10') }),
    ]);
  });

  it('maps reply_to and reply_to_list, and refuses both together', () => {
    expect(map(body({ reply_to: { email: 'r@example.com', name: 'Desk' } })).requests[0]!.reply_to).toEqual(['Desk <r@example.com>']);
    expect(map(body({ reply_to_list: [{ email: 'r1@example.com' }, { email: 'r2@example.com' }] })).requests[0]!.reply_to).toEqual([
      'r1@example.com',
      'r2@example.com',
    ]);
    expect(refusal(body({ reply_to: { email: 'r@example.com' }, reply_to_list: [{ email: 'r2@example.com' }] }))).toEqual([
      expect.objectContaining({ field: 'reply_to_list' }),
    ]);
  });

  it('maps attachments (inline ones with their content_id) and refuses an inline one without content_id', () => {
    const { requests } = map(
      body({
        attachments: [
          { content: 'aGVsbG8=', filename: 'a.txt', type: 'text/plain' },
          { content: 'aGVsbG8=', filename: 'logo.png', type: 'image/png', disposition: 'inline', content_id: 'logo' },
          { content: 'aGVsbG8=', filename: 'b.pdf', disposition: 'attachment', content_id: 'ignored' },
        ],
      }),
    );
    expect(requests[0]!.attachments).toEqual([
      { filename: 'a.txt', data: 'aGVsbG8=', content_type: 'text/plain' },
      { filename: 'logo.png', data: 'aGVsbG8=', content_type: 'image/png', content_id: 'logo' },
      { filename: 'b.pdf', data: 'aGVsbG8=' },
    ]);
    expect(sendRequestSchema.safeParse(requests[0]).success).toBe(true);
    // The SDK passes attachment objects as given: its own camelCase contentId reaches the API as is.
    expect(
      map(body({ attachments: [{ content: 'aGVsbG8=', filename: 'x.png', disposition: 'inline', contentId: 'x' }] })).requests[0]!
        .attachments,
    ).toEqual([{ filename: 'x.png', data: 'aGVsbG8=', content_id: 'x' }]);
    expect(refusal(body({ attachments: [{ content: 'aGVsbG8=', filename: 'x.png', disposition: 'inline' }] }))).toEqual([
      expect.objectContaining({ field: 'attachments.0.content_id' }),
    ]);
  });

  it('refuses attachments with more than one personalization (the batch core sends none)', () => {
    const input = body({
      attachments: [{ content: 'aGVsbG8=', filename: 'a.txt' }],
      personalizations: [{ to: [{ email: 'a@example.net' }] }, { to: [{ email: 'b@example.net' }] }],
    });
    expect(refusal(input)).toEqual([expect.objectContaining({ field: 'attachments' })]);
  });

  it('maps asm to a product email with managed unsubscribe, and subscription_tracking to managed unsubscribe', () => {
    expect(map(body({ asm: { group_id: 12, groups_to_display: [12, 13] } })).requests[0]).toMatchObject({
      category: 'product',
      unsubscribe: true,
    });
    const tracked = map(body({ tracking_settings: { subscription_tracking: { enable: true }, click_tracking: { enable: true } } }))
      .requests[0]!;
    expect(tracked).toMatchObject({ unsubscribe: true });
    expect(tracked).not.toHaveProperty('category');
    const plain = map(body({ tracking_settings: { open_tracking: { enable: true } } })).requests[0]!;
    expect(plain).not.toHaveProperty('unsubscribe');
  });

  it('maps tracking_settings.open_tracking and click_tracking to track_opens and track_clicks; absent leaves the domain to decide', () => {
    const off = map(body({ tracking_settings: { open_tracking: { enable: false }, click_tracking: { enable: false } } })).requests[0]!;
    expect(off).toMatchObject({ track_opens: false, track_clicks: false });
    expect(map(body({ tracking_settings: { click_tracking: { enable: true } } })).requests[0]).toMatchObject({ track_clicks: true });
    const none = map(body({})).requests[0]!;
    expect(none).not.toHaveProperty('track_opens');
    expect(none).not.toHaveProperty('track_clicks');
  });

  it('appends mail_settings.footer to text and html (before </body>)', () => {
    const { requests } = map(
      body({
        content: [
          { type: 'text/plain', value: 'Hi' },
          { type: 'text/html', value: '<html><body><p>Hi</p></body></html>' },
        ],
        mail_settings: { footer: { enable: true, text: 'Footer', html: '<p>Footer</p>' } },
      }),
    );
    expect(requests[0]).toMatchObject({ text: 'Hi\n\nFooter', html: '<html><body><p>Hi</p><p>Footer</p></body></html>' });
    expect(map(body({ mail_settings: { footer: { enable: false, text: 'F' } } })).requests[0]).toMatchObject({ text: 'Hi' });
  });

  it('reads sandbox_mode', () => {
    expect(map(body({ mail_settings: { sandbox_mode: { enable: true } } })).sandbox).toBe(true);
    expect(map(body({ mail_settings: { sandbox_mode: { enable: false } } })).sandbox).toBe(false);
  });

  it('sends a dynamic template by alias with dynamic_template_data flattened as the import flattens placeholders', () => {
    const { requests } = map(
      body({
        template_id: 'd-0123456789abcdef0123456789abcdef',
        content: undefined,
        subject: undefined,
        personalizations: [
          {
            to: [{ email: 'a@example.net' }],
            subject: 'Welcome',
            dynamic_template_data: { first_name: 'Ann', user: { plan: { name: 'pro' } }, count: 3 },
          },
        ],
      }),
      'welcome-email',
    );
    expect(requests[0]).toEqual({
      from: FROM,
      to: ['a@example.net'],
      template: { id: 'welcome-email', variables: { first_name: 'Ann', user_plan_name: 'pro', count: 3, subject: 'Welcome' } },
    });
    expect(sendRequestSchema.safeParse(requests[0]).success).toBe(true);
  });

  it('sends a legacy template with {{key}} substitutions as variables and the content as body', () => {
    const { requests } = map(
      body({
        template_id: 'b0a1c3f2-1111-2222-3333-444455556666',
        personalizations: [{ to: [{ email: 'a@example.net' }], substitutions: { '{{name}}': 'Ann', '{{ city }}': 'Paris' } }],
      }),
      'legacy-welcome',
    );
    expect(requests[0]!.template).toEqual({
      id: 'legacy-welcome',
      variables: { name: 'Ann', city: 'Paris', body: 'Hi', subject: 'Hello' },
    });
    expect(requests[0]).not.toHaveProperty('text');
    expect(
      refusal(
        body({ template_id: 'legacy', personalizations: [{ to: [{ email: 'a@example.net' }], substitutions: { '-name-': 'Ann' } }] }),
      ),
    ).toEqual([expect.objectContaining({ field: 'personalizations.0.substitutions' })]);
  });

  it('needs no subject or content with a template', () => {
    const { requests } = map({ personalizations: [{ to: [{ email: 'a@example.net' }] }], from: FROM, template_id: 'd-1' }, 'welcome');
    expect(requests[0]).toEqual({ from: FROM, to: ['a@example.net'], template: { id: 'welcome' } });
  });

  it("refuses what SendGrid requires: from, subject, content, in SendGrid's words", () => {
    const problems = refusal({ personalizations: [{ to: [{ email: 'a@example.net' }] }] });
    expect(problems.map((p) => p.field)).toEqual(['from', 'content', 'subject']);
    expect(problems[0]!.message).toMatch(/The from object must be provided/);
  });

  it('takes a subject from every personalization instead of the top-level one', () => {
    const { requests } = map(body({ subject: undefined, personalizations: [{ to: [{ email: 'a@example.net' }], subject: 'Own' }] }));
    expect(requests[0]).toMatchObject({ subject: 'Own' });
  });

  it('refuses what it cannot honour: sections, bypass switches, other content types, a footer on a template, too many personalizations', () => {
    expect(refusal(body({ sections: { '-s-': 'x' } }))).toEqual([expect.objectContaining({ field: 'sections' })]);
    expect(refusal(body({ mail_settings: { bypass_list_management: { enable: true } } }))).toEqual([
      expect.objectContaining({ field: 'mail_settings.bypass_list_management.enable' }),
    ]);
    expect(refusal(body({ content: [{ type: 'text/calendar', value: 'BEGIN:VCALENDAR' }] }))).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'content.0.type' })]),
    );
    expect(
      refusal(
        body({
          content: [
            { type: 'text/plain', value: 'a' },
            { type: 'text/plain', value: 'b' },
          ],
        }),
      ),
    ).toEqual([expect.objectContaining({ field: 'content.1.type' })]);
    expect(refusal(body({ template_id: 'd-1', mail_settings: { footer: { enable: true, text: 'f' } } }))).toEqual([
      expect.objectContaining({ field: 'mail_settings.footer' }),
    ]);
    const many = Array.from({ length: 101 }, (_, i) => ({ to: [{ email: `r${i}@example.net` }] }));
    expect(refusal(body({ personalizations: many }))).toEqual([
      expect.objectContaining({ field: 'personalizations', message: expect.stringContaining('At most 100') }),
    ]);
  });

  it('ignores harmless fields (batch_id, ip_pool_name, ganalytics, bypass switches off, an empty sections); maps open/click tracking', () => {
    const { requests } = map(
      body({
        batch_id: 'b',
        ip_pool_name: 'pool',
        tracking_settings: { click_tracking: { enable: true }, open_tracking: { enable: true }, ganalytics: { enable: true } },
        mail_settings: { bypass_list_management: { enable: false } },
        sections: {},
      }),
    );
    expect(requests[0]).toEqual({
      from: FROM,
      to: ['to@example.net'],
      subject: 'Hello',
      text: 'Hi',
      track_opens: true,
      track_clicks: true,
    });
  });
});

describe("SendGrid's body schema", () => {
  const issues = (input: unknown) => {
    const result = mailSendSchema.safeParse(input);
    return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
  };

  it('requires personalizations with a to array', () => {
    expect(issues({ from: FROM })).toEqual(['personalizations']);
    expect(issues({ personalizations: [] })).toEqual(['personalizations']);
    expect(issues({ personalizations: [{ to: [] }] })).toEqual(['personalizations.0.to']);
    expect(issues({ personalizations: [{ to: [{ name: 'no email' }] }] })).toEqual(['personalizations.0.to.0.email']);
  });

  it('checks the types SendGrid checks', () => {
    expect(issues({ ...body(), send_at: '2030' })).toEqual(['send_at']);
    expect(issues({ ...body(), mail_settings: { sandbox_mode: { enable: 'true' } } })).toEqual(['mail_settings.sandbox_mode.enable']);
    expect(issues({ ...body(), asm: { group_id: 'x' } })).toEqual(['asm.group_id']);
    expect(issues({ ...body(), categories: Array.from({ length: 11 }, () => 'c') })).toEqual(['categories']);
    expect(issues({ ...body(), attachments: [{ filename: 'a.txt' }] })).toEqual(['attachments.0.content']);
    expect(issues({ ...body(), content: [{ type: 'text/plain', value: '' }] })).toEqual(['content.0.value']);
    expect(issues({ ...body(), personalizations: [{ to: [{ email: 'a@example.net', name: 'A\r\nBcc: x@evil.test' }] }] })).toEqual([
      'personalizations.0.to.0.name',
    ]);
  });
});

describe('mapping helpers', () => {
  it('tagPart keeps A-Za-z0-9_- and replaces the rest', () => {
    expect(tagPart('order-42_x')).toBe('order-42_x');
    expect(tagPart('a b@c.d')).toBe('a_b_c_d');
    expect(tagPart('!!!')).toBe('_');
    expect(tagPart('x'.repeat(300))).toHaveLength(256);
  });

  it('substitute replaces in one pass (a value is not substituted again)', () => {
    expect(substitute('-a- -b-', { '-a-': '-b-', '-b-': 'B' })).toBe('-b- B');
    expect(substitute('$1 %x%', { '%x%': '$&' })).toBe('$1 $&');
    expect(substitute('unchanged', undefined)).toBe('unchanged');
  });

  it('flattenTemplateData flattens objects and arrays with underscores', () => {
    expect(flattenTemplateData({ a: { b: 1, c: { d: 'x' } }, list: ['p', { q: true }], n: null })).toEqual({
      a_b: 1,
      a_c_d: 'x',
      list_0: 'p',
      list_1_q: true,
      n: null,
    });
  });

  it('placeholderName reads {{name}} keys only', () => {
    expect(placeholderName('{{first_name}}')).toBe('first_name');
    expect(placeholderName('{{ first_name }}')).toBe('first_name');
    expect(placeholderName('-first_name-')).toBeNull();
  });
});
