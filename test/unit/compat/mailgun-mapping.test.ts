/**
 * The Mailgun door's request side: the form's fields (shared/doors/compat/mailgun/message-schema.ts) and
 * their mapping onto our send request (to-send-request.ts), batch sending with recipient-variables, the
 * RFC 2822 delivery time, the address lists, Basic auth and the form reader. Every mapped request is also
 * parsed by our send request schema, so the mapping is known to be what POST /emails takes.
 */
import { sendRequestSchema } from '#shared/domain/emails/send-request';
import { UnauthorizedError, ValidationError } from '#shared/domain/errors';
import { splitAddressList as splitAddresses } from '#shared/domain/mail/address-list';
import { keyOfBasicAuth } from '#shared/doors/compat/mailgun/auth';
import { parseRfc2822Date } from '#shared/doors/compat/mailgun/delivery-time';
import { mailgunMessageSchema, type FormFields } from '#shared/doors/compat/mailgun/message-schema';
import { checkFormType, formOf } from '#shared/doors/compat/mailgun/read-form';
import { flattenVariables, toSendRequest, type MailgunFile } from '#shared/doors/compat/mailgun/to-send-request';

const DOMAIN = 'mg.example.com';
const base: FormFields = { from: ['Shop <shop@mg.example.com>'], to: ['ann@example.org'], subject: ['Hello'], text: ['Hi'] };

function parse(fields: FormFields) {
  return mailgunMessageSchema.safeParse(fields);
}

function issuesOf(fields: FormFields): string[] {
  const result = parse(fields);
  if (result.success) throw new Error('expected issues');
  return result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

function mapped(fields: FormFields, files: MailgunFile[] = [], onBehalfOf?: string) {
  const result = parse(fields);
  if (!result.success) throw new Error(JSON.stringify(result.error.issues));
  return toSendRequest(result.data, { domain: DOMAIN, files, ...(onBehalfOf ? { onBehalfOf } : {}) });
}

function single(fields: FormFields, files: MailgunFile[] = [], onBehalfOf?: string) {
  const out = mapped(fields, files, onBehalfOf);
  if (out.kind !== 'single') throw new Error('expected one email');
  return out.request;
}

describe('mailgun message -> send request', () => {
  it('maps the basic fields, and our schema takes the result', () => {
    const request = single({ ...base, html: ['<p>Hi</p>'], cc: ['c@example.org'], bcc: ['b@example.org'] });
    expect(request).toEqual({
      from: 'Shop <shop@mg.example.com>',
      to: ['ann@example.org'],
      cc: ['c@example.org'],
      bcc: ['b@example.org'],
      subject: 'Hello',
      text: 'Hi',
      html: '<p>Hi</p>',
    });
    expect(sendRequestSchema.safeParse(request).success).toBe(true);
  });

  it('takes to repeated and comma-separated, keeping commas inside quoted names', () => {
    const request = single({ ...base, to: ['a@example.org, "Doe, Jane" <jane@example.org>', 'c@example.org'] });
    expect(request.to).toEqual(['a@example.org', '"Doe, Jane" <jane@example.org>', 'c@example.org']);
    const parsed = sendRequestSchema.parse(request);
    expect(parsed.to).toEqual(['a@example.org', '"Doe, Jane" <jane@example.org>', 'c@example.org']);
  });

  it('maps o:tag and v: to tags, h: to headers and h:Reply-To to reply_to', () => {
    const request = single({
      ...base,
      'o:tag': ['welcome', 'onboarding'],
      'v:user_id': ['42'],
      'h:X-Campaign': ['spring'],
      'h:Reply-To': ['help@example.com'],
    });
    expect(request.tags).toEqual([
      { name: 'tag', value: 'welcome' },
      { name: 'tag', value: 'onboarding' },
      { name: 'user_id', value: '42' },
    ]);
    expect(request.headers).toEqual({ 'X-Campaign': 'spring' });
    expect(request.reply_to).toEqual(['help@example.com']);
    expect(sendRequestSchema.safeParse(request).success).toBe(true);
  });

  it('reads h:X-Mailgun-Variables (JSON) as custom variables', () => {
    const request = single({ ...base, 'h:X-Mailgun-Variables': ['{"order": "A17", "n": 3}'] });
    expect(request.tags).toEqual([
      { name: 'order', value: 'A17' },
      { name: 'n', value: '3' },
    ]);
    expect(request.headers).toBeUndefined();
  });

  it("keeps what our tags cannot hold as written by the doors' one rule (other characters become _)", () => {
    const request = single({ ...base, 'o:tag': ['Password Reset'], 'v:order id': ['A 17'] });
    expect(request.tags).toEqual([
      { name: 'tag', value: 'Password_Reset' },
      { name: 'order_id', value: 'A_17' },
    ]);
  });

  it('refuses more tags than an email keeps (o:tag and v: together), rather than dropping some', () => {
    const variables = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`v:k${i}`, ['v']]));
    expect(() => mapped({ ...base, 'o:tag': ['a', 'b'], ...variables })).toThrow(ValidationError);
    expect(() => mapped({ ...base, 'o:tag': ['a'], ...variables })).not.toThrow();
  });

  it('maps o:deliverytime (RFC 2822) to scheduled_at', () => {
    const request = single({ ...base, 'o:deliverytime': ['Fri, 14 Oct 2033 23:10:10 -0200'] });
    expect(request.scheduled_at).toBe('2033-10-15T01:10:10.000Z');
  });

  it('maps attachment and inline files (inline with its file name as content id)', () => {
    const files: MailgunFile[] = [
      { field: 'attachment', filename: 'invoice.pdf', contentType: 'application/pdf', data: Buffer.from('%PDF') },
      { field: 'inline', filename: 'logo.png', contentType: '', data: Buffer.from([1, 2, 3]) },
    ];
    const request = single(base, files);
    expect(request.attachments).toEqual([
      { filename: 'invoice.pdf', content_type: 'application/pdf', data: Buffer.from('%PDF').toString('base64') },
      { filename: 'logo.png', data: Buffer.from([1, 2, 3]).toString('base64'), content_id: 'logo.png' },
    ]);
    const parsed = sendRequestSchema.parse(request);
    expect(parsed.attachments).toHaveLength(2);
  });

  it('maps template to the alias the Mailgun import gives it, and t:variables flattened', () => {
    const fields: FormFields = {
      from: base.from!,
      to: base.to!,
      template: ['Order Receipt'],
      't:variables': ['{"user": {"first_name": "Ann"}, "items": ["a", "b"], "total": 12}'],
    };
    const request = single(fields);
    expect(request.template).toEqual({ id: 'order-receipt', variables: { user_first_name: 'Ann', items_0: 'a', items_1: 'b', total: 12 } });
    expect(sendRequestSchema.safeParse(request).success).toBe(true);
    expect((single({ ...fields, template: ['welcome_v2'] }).template as { id: string }).id).toBe('welcome_v2');
  });

  it('maps o:tracking to both track_opens and track_clicks, o:tracking-opens and o:tracking-clicks over it (htmlonly: on)', () => {
    expect(single({ ...base, 'o:tracking': ['no'] })).toMatchObject({ track_opens: false, track_clicks: false });
    expect(single({ ...base, 'o:tracking': ['yes'], 'o:tracking-clicks': ['no'] })).toMatchObject({
      track_opens: true,
      track_clicks: false,
    });
    expect(single({ ...base, 'o:tracking-clicks': ['htmlonly'] })).toMatchObject({ track_clicks: true });
    expect(single({ ...base, 'o:tracking-opens': ['true'] })).not.toHaveProperty('track_clicks');
    expect(single(base)).not.toHaveProperty('track_opens');
    expect(issuesOf({ ...base, 'o:tracking-opens': ['htmlonly'] })).toEqual([
      "o:tracking-opens: 'o:tracking-opens' must be one of yes, no, true, false",
    ]);
  });

  it('maps X-Mailgun-On-Behalf-Of to tenant', () => {
    expect(single(base, [], 'acme').tenant).toBe('acme');
  });

  it('accepts the options it ignores, with Mailgun values (and maps the tracking ones)', () => {
    const request = single({
      ...base,
      'o:tracking': ['yes'],
      'o:tracking-clicks': ['htmlonly'],
      'o:tracking-opens': ['no'],
      'o:dkim': ['yes'],
      'o:testmode': ['no'],
      'amp-html': ['<p>amp</p>'],
    });
    expect(request).toEqual({ ...single(base), track_opens: false, track_clicks: true });
  });
});

describe('mailgun message: bad input', () => {
  it("names a missing from, to and body in Mailgun's words", () => {
    expect(issuesOf({ subject: ['x'] })).toEqual(
      expect.arrayContaining([
        "from: 'from' parameter is missing",
        "to: 'to' parameter is missing",
        "html: Need at least one of 'text', 'html' or 'template' parameters specified",
      ]),
    );
  });

  it('refuses o:testmode=yes (it would really be sent) and o:require-tls=yes', () => {
    expect(issuesOf({ ...base, 'o:testmode': ['yes'] })[0]).toMatch(/o:testmode.*not supported/);
    expect(issuesOf({ ...base, 'o:testmode': ['true'] })[0]).toMatch(/o:testmode/);
    expect(issuesOf({ ...base, 'o:require-tls': ['yes'] })[0]).toMatch(/tls_mode/);
  });

  it('refuses unknown parameters and options it cannot honour', () => {
    expect(issuesOf({ ...base, 'o:archive-to': ['x'] })[0]).toMatch(/not supported/);
    expect(issuesOf({ ...base, 't:version': ['v2'], template: ['t'] })[0]).toMatch(/published version/);
    expect(issuesOf({ ...base, 'o:time-zone-localize': ['09:00'] })[0]).toMatch(/not supported/);
    expect(issuesOf({ ...base, sender: ['x'] })[0]).toMatch(/'sender' is not a parameter/);
    expect(issuesOf({ ...base, 'o:tracking': ['maybe'] })[0]).toMatch(/must be one of/);
  });

  it('refuses a single field given twice, a bad date and bad JSON', () => {
    expect(issuesOf({ ...base, subject: ['a', 'b'] })[0]).toMatch(/'subject' parameter may be given once/);
    expect(issuesOf({ ...base, 'o:deliverytime': ['tomorrow'] })[0]).toMatch(/RFC 2822/);
    expect(issuesOf({ ...base, 'recipient-variables': ['{not json'] })[0]).toMatch(/recipient-variables must be a JSON object/);
    expect(issuesOf({ ...base, 'recipient-variables': ['[1]'] })[0]).toMatch(/JSON object/);
    expect(issuesOf({ ...base, 't:variables': ['{}'] })[0]).toMatch(/needs 'template'/);
  });

  it('leaves our own rules to our schema: a bad address or header is refused there', () => {
    expect(sendRequestSchema.safeParse(single({ ...base, to: ['not an address'] })).success).toBe(false);
    expect(sendRequestSchema.safeParse(single({ ...base, 'h:Bcc': ['x@example.org'] })).success).toBe(false);
  });

  it('refuses t:variables nested too deep', () => {
    let deep: Record<string, unknown> = { v: 1 };
    for (let i = 0; i < 12; i++) deep = { a: deep };
    expect(() => flattenVariables(deep as never)).toThrow(/nested more than/);
  });
});

describe('mailgun batch sending (recipient-variables)', () => {
  const fields: FormFields = {
    ...base,
    to: ['ann@example.org, Bob <BOB@example.org>', 'cy@example.org'],
    subject: ['Hi %recipient.first%'],
    text: ['Your code is %recipient.code%.'],
    'v:uid': ['%recipient.id%'],
    'recipient-variables': [
      '{"ann@example.org": {"first": "Ann", "code": 11, "id": "u1"}, "bob@example.org": {"first": "Bob", "code": "22", "id": "u2"}}',
    ],
  };

  it('makes one email per to recipient, each with its own substitutions', () => {
    const out = mapped(fields);
    expect(out.kind).toBe('batch');
    if (out.kind !== 'batch') return;
    expect(out.items.map((item) => [item.to, item.subject, item.text, item.tags])).toEqual([
      [['ann@example.org'], 'Hi Ann', 'Your code is 11.', [{ name: 'uid', value: 'u1' }]],
      [['Bob <BOB@example.org>'], 'Hi Bob', 'Your code is 22.', [{ name: 'uid', value: 'u2' }]],
      [['cy@example.org'], 'Hi ', 'Your code is .', [{ name: 'uid', value: '_' }]], // no value: the doors' tag rule keeps '_'
    ]);
  });

  it('substitutes inside template variables too', () => {
    const out = mapped({
      from: base.from!,
      to: ['ann@example.org'],
      template: ['hello'],
      't:variables': ['{"name": "%recipient.first%"}'],
      'recipient-variables': ['{"ann@example.org": {"first": "Ann"}}'],
    });
    expect(out.kind === 'batch' && out.items[0]!.template).toEqual({ id: 'hello', variables: { name: 'Ann' } });
  });

  it('refuses cc/bcc, files, and more than 100 recipients with recipient-variables', () => {
    expect(() => mapped({ ...fields, cc: ['c@example.org'] })).toThrow(/'cc' and 'bcc' cannot be combined/);
    expect(() => mapped(fields, [{ field: 'attachment', filename: 'a.txt', contentType: '', data: Buffer.from('a') }])).toThrow(
      /cannot be combined/,
    );
    const many = Array.from({ length: 101 }, (_, i) => `r${i}@example.org`).join(',');
    expect(() => mapped({ ...fields, to: [many] })).toThrow(/at most 100/);
  });
});

describe('mailgun helpers', () => {
  it('splits address lists', () => {
    expect(splitAddresses('a@x.io,  b@x.io ,, "Q, \\"R\\"" <q@x.io>, <z@x.io>')).toEqual([
      'a@x.io',
      'b@x.io',
      '"Q, \\"R\\"" <q@x.io>',
      '<z@x.io>',
    ]);
  });

  it('parses RFC 2822 dates and refuses others', () => {
    expect(parseRfc2822Date('Fri, 14 Oct 2011 23:10:10 -0000')).toBe('2011-10-14T23:10:10.000Z');
    expect(parseRfc2822Date('14 Oct 2011 23:10 GMT')).toBe('2011-10-14T23:10:00.000Z');
    expect(parseRfc2822Date('Mon, 1 Jan 2035 09:00:00 +0530')).toBe('2035-01-01T03:30:00.000Z');
    expect(parseRfc2822Date('Thu, 1 Jan 2035 09:00:00 EST')).toBe('2035-01-01T14:00:00.000Z');
    expect(parseRfc2822Date('2035-01-01T09:00:00Z')).toBeNull();
    expect(parseRfc2822Date('31 Feb 2035 09:00:00 +0000')).toBeNull();
    expect(parseRfc2822Date('1 Foo 2035 09:00:00 +0000')).toBeNull();
  });

  it('reads Basic auth with the user api only', () => {
    const header = (userPass: string) => `Basic ${Buffer.from(userPass).toString('base64')}`;
    expect(keyOfBasicAuth(header('api:svc_abc'))).toBe('svc_abc');
    expect(() => keyOfBasicAuth(header('other:svc_abc'))).toThrow(UnauthorizedError);
    expect(() => keyOfBasicAuth('Bearer svc_abc')).toThrow(UnauthorizedError);
    expect(() => keyOfBasicAuth(undefined)).toThrow(UnauthorizedError);
  });

  it('reads a form: repeated text fields, files from attachment and inline only', async () => {
    const form = new FormData();
    form.append('to', 'a@x.io');
    form.append('to', 'b@x.io');
    form.append('attachment', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
    const read = await formOf(form);
    expect(read.fields).toEqual({ to: ['a@x.io', 'b@x.io'] });
    expect(read.files).toEqual([{ field: 'attachment', filename: 'a.txt', contentType: 'text/plain', data: Buffer.from('hello') }]);

    const textAttachment = new FormData();
    textAttachment.append('attachment', 'not a file');
    await expect(formOf(textAttachment)).rejects.toThrow(/must be a file/);
    const fileElsewhere = new FormData();
    fileElsewhere.append('text', new Blob(['x']), 'x.txt');
    await expect(formOf(fileElsewhere)).rejects.toThrow(/must be a text field/);
  });

  it('takes multipart and urlencoded bodies only', () => {
    expect(() => checkFormType('multipart/form-data; boundary=x')).not.toThrow();
    expect(() => checkFormType('application/x-www-form-urlencoded')).not.toThrow();
    expect(() => checkFormType('application/json')).toThrow(/multipart\/form-data or application\/x-www-form-urlencoded/);
    expect(() => checkFormType(undefined)).toThrow(/no content type/);
  });
});
