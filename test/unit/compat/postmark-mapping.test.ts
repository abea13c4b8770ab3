/**
 * The Postmark door's mapping (shared/doors/compat/postmark): a Postmark message -> our send request, as
 * the send request schema then reads it; the comma-separated address lists; the flattened TemplateModel;
 * the template alias of a TemplateAlias or TemplateId; and the refusals (each Postmark's code).
 */
import { sendRequestSchema } from '#shared/domain/emails/send-request';
import { splitAddressList } from '#shared/domain/mail/address-list';
import { PostmarkFailure } from '#shared/doors/compat/postmark/errors';
import { parsePostmark } from '#shared/doors/compat/postmark/read-request';
import { postmarkMessageSchema, postmarkTemplatedMessageSchema } from '#shared/doors/compat/postmark/schema';
import { aliasForTemplateAlias, aliasForTemplateId, type ImportLookup } from '#shared/doors/compat/postmark/template-alias';
import { flattenTemplateModel } from '#shared/doors/compat/postmark/template-model';
import { categoryOfStream, messageToSendRequest, tagsOf, templatedToSendRequest } from '#shared/doors/compat/postmark/to-send-request';

/** The Postmark code a function throws (a PostmarkFailure), or fails the test. */
function failureOf(run: () => unknown): PostmarkFailure {
  try {
    run();
  } catch (error) {
    if (error instanceof PostmarkFailure) return error;
    throw error;
  }
  throw new Error('expected a PostmarkFailure');
}

const mapped = (body: unknown) => messageToSendRequest(parsePostmark(postmarkMessageSchema, body));

describe('a Postmark message -> our send request', () => {
  it('maps every content and envelope field', () => {
    const request = mapped({
      From: 'Sender <sender@example.com>',
      To: 'a@example.com, "Doe, Jane" <jane@example.com>',
      Cc: 'c@example.com',
      Bcc: 'd@example.com,e@example.com',
      ReplyTo: 'reply@example.com',
      Subject: 'Hello',
      HtmlBody: '<p>hi</p>',
      TextBody: 'hi',
      Headers: [{ Name: 'X-Order', Value: '42' }],
      Tag: 'welcome',
      Metadata: { order: 'ord-42', plan: 7 },
      TrackOpens: true,
      TrackLinks: 'HtmlAndText',
      MessageStream: 'outbound',
      Attachments: [{ Name: 'a.txt', Content: 'aGVsbG8=', ContentType: 'text/plain', ContentID: 'cid:logo@x' }],
    });
    expect(request).toEqual({
      from: 'Sender <sender@example.com>',
      to: ['a@example.com', '"Doe, Jane" <jane@example.com>'],
      cc: ['c@example.com'],
      bcc: ['d@example.com', 'e@example.com'],
      reply_to: ['reply@example.com'],
      subject: 'Hello',
      html: '<p>hi</p>',
      text: 'hi',
      headers: { 'X-Order': '42' },
      tags: [
        { name: 'tag', value: 'welcome' },
        { name: 'order', value: 'ord-42' },
        { name: 'plan', value: '7' },
      ],
      category: 'transactional',
      track_opens: true,
      track_clicks: true,
      attachments: [{ filename: 'a.txt', data: 'aGVsbG8=', content_type: 'text/plain', content_id: 'logo@x' }],
    });
    // ...and our schema takes it as it is.
    const parsed = sendRequestSchema.parse(request);
    expect(parsed.to).toEqual(['a@example.com', '"Doe, Jane" <jane@example.com>']);
    expect(parsed.attachments).toHaveLength(1);
  });

  it('maps TrackOpens to track_opens and TrackLinks to track_clicks (None: off), and refuses another TrackLinks with a 300', () => {
    expect(mapped({ From: 'a@example.com', To: 'b@example.com', TextBody: 'x', TrackOpens: false, TrackLinks: 'None' })).toMatchObject({
      track_opens: false,
      track_clicks: false,
    });
    for (const value of ['HtmlAndText', 'HtmlOnly', 'TextOnly'])
      expect(mapped({ From: 'a@example.com', To: 'b@example.com', TextBody: 'x', TrackLinks: value })).toMatchObject({
        track_clicks: true,
      });
    const neither = mapped({ From: 'a@example.com', To: 'b@example.com', TextBody: 'x', TrackOpens: null, TrackLinks: null });
    expect(neither).not.toHaveProperty('track_opens');
    expect(neither).not.toHaveProperty('track_clicks');
    expect(() => mapped({ From: 'a@example.com', To: 'b@example.com', TextBody: 'x', TrackLinks: 'Always' })).toThrow(
      expect.objectContaining({ errorCode: 300, message: expect.stringContaining('TrackLinks') }),
    );
  });

  it("takes the SDK's nulls as absent fields, and an empty body as no body", () => {
    const request = mapped({
      From: 'a@example.com',
      To: 'b@example.com',
      Subject: 's',
      HtmlBody: '',
      TextBody: 'x',
      Cc: null,
      Tag: null,
      Headers: null,
      Attachments: null,
      Metadata: null,
      MessageStream: null,
    });
    expect(request).toEqual({ from: 'a@example.com', to: ['b@example.com'], subject: 's', text: 'x' });
  });

  it("maps broadcast to the product category; absent leaves ours (transactional, or the template's)", () => {
    expect(categoryOfStream('broadcast')).toBe('product');
    expect(categoryOfStream('outbound')).toBe('transactional');
    expect(categoryOfStream(undefined)).toBeUndefined();
    expect(mapped({ From: 'a@example.com', To: 'b@example.com', Subject: 's', TextBody: 'x' })).not.toHaveProperty('category');
  });

  it("refuses an unknown MessageStream with Postmark's 1235", () => {
    const failure = failureOf(() =>
      mapped({ From: 'a@example.com', To: 'b@example.com', Subject: 's', TextBody: 'x', MessageStream: 'my-newsletter' }),
    );
    expect(failure.errorCode).toBe(1235);
    expect(failure.status).toBe(422);
    expect(failure.message).toContain("'my-newsletter'");
  });

  it('refuses a header given twice (one value would be lost)', () => {
    const failure = failureOf(() =>
      mapped({
        From: 'a@example.com',
        To: 'b@example.com',
        Subject: 's',
        TextBody: 'x',
        Headers: [
          { Name: 'X-A', Value: '1' },
          { Name: 'x-a', Value: '2' },
        ],
      }),
    );
    expect(failure.errorCode).toBe(300);
  });

  it("keeps a Tag or Metadata our tags cannot hold as written by the doors' one rule, and refuses more than 10 rather than dropping some", () => {
    expect(tagsOf('password reset', undefined)).toEqual([{ name: 'tag', value: 'password_reset' }]);
    expect(tagsOf(undefined, { user: 'jane@example.com' })).toEqual([{ name: 'user', value: 'jane_example_com' }]);
    expect(tagsOf(undefined, { 'user id': '1' })).toEqual([{ name: 'user_id', value: '1' }]);
    expect(tagsOf('a', { tag: 'b' })).toEqual([
      { name: 'tag', value: 'a' },
      { name: 'tag', value: 'b' },
    ]);
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'v']));
    expect(failureOf(() => tagsOf('t', ten)).errorCode).toBe(300);
    expect(failureOf(() => tagsOf('t', ten)).message).toContain('at most 10');
    expect(tagsOf(undefined, ten)).toHaveLength(10);
    expect(tagsOf('', {})).toBeUndefined();
  });

  it('leaves recipients and addresses to our schema: a bad address or no To is then a 400 naming the field', () => {
    expect(mapped({ From: 'a@example.com', Subject: 's', TextBody: 'x' })).toMatchObject({ to: [] });
    const noTo = sendRequestSchema.safeParse(mapped({ From: 'a@example.com', Subject: 's', TextBody: 'x' }));
    expect(noTo.success).toBe(false);
    const badTo = sendRequestSchema.safeParse(mapped({ From: 'a@example.com', To: 'not an address', Subject: 's', TextBody: 'x' }));
    expect(badTo.success).toBe(false);
    expect(badTo.error!.issues[0]!.path[0]).toBe('to');
  });

  it('refuses a wrongly typed Postmark field with a 300 naming it as Postmark does', () => {
    const failure = failureOf(() =>
      parsePostmark(postmarkMessageSchema, { From: 'a@example.com', To: ['b@example.com'], Headers: [{ Name: 'X' }] }),
    );
    expect(failure.errorCode).toBe(300);
    expect(failure.message).toContain('To: To must be a string');
    expect(failure.message).toContain('Headers[0].Value');
    expect(failureOf(() => parsePostmark(postmarkMessageSchema, [1, 2])).message).toContain('(body)');
  });
});

describe('comma-separated address lists', () => {
  it('splits on commas outside quotes and angle brackets, trimming and dropping empty items', () => {
    expect(splitAddressList('a@x.com,b@x.com')).toEqual(['a@x.com', 'b@x.com']);
    expect(splitAddressList(' "Doe, Jane" <jane@x.com> , b@x.com,, ')).toEqual(['"Doe, Jane" <jane@x.com>', 'b@x.com']);
    expect(splitAddressList('"A \\"B, C\\"" <a@x.com>')).toEqual(['"A \\"B, C\\"" <a@x.com>']);
    expect(splitAddressList('')).toEqual([]);
  });
});

describe('TemplateModel -> flat template variables', () => {
  it('flattens nested objects and arrays with _ as the Postmark import flattened the placeholders', () => {
    expect(
      flattenTemplateModel({
        name: 'Jane',
        user: { first_name: 'J', address: { city: 'Paris' } },
        items: [{ sku: 'a' }, 'b'],
        n: 2,
        ok: true,
        none: null,
      }),
    ).toEqual({
      name: 'Jane',
      user_first_name: 'J',
      user_address_city: 'Paris',
      items_0_sku: 'a',
      items_1: 'b',
      n: 2,
      ok: true,
      none: null,
    });
  });

  it('lets a flat key win over a nested path of the same name; empty containers give nothing', () => {
    expect(flattenTemplateModel({ user: { name: 'nested' }, user_name: 'flat', empty: {}, list: [] })).toEqual({ user_name: 'flat' });
  });

  it('maps a templated message to a template send', () => {
    const message = parsePostmark(postmarkTemplatedMessageSchema, {
      From: 'a@example.com',
      To: 'b@example.com',
      TemplateAlias: 'welcome',
      TemplateModel: { user: { name: 'Jane' } },
      InlineCss: true,
      MessageStream: 'broadcast',
    });
    const request = templatedToSendRequest(message, { alias: 'welcome', model: message.TemplateModel });
    expect(request).toEqual({
      from: 'a@example.com',
      to: ['b@example.com'],
      category: 'product',
      template: { id: 'welcome', variables: { user_name: 'Jane' } },
    });
    expect(sendRequestSchema.safeParse(request).success).toBe(true);
  });
});

describe('the template a TemplateAlias or TemplateId names', () => {
  it('keeps a TemplateAlias that is one of ours, else takes its slug (as the import did)', () => {
    expect(aliasForTemplateAlias('welcome-email')).toBe('welcome-email');
    expect(aliasForTemplateAlias('Welcome Email')).toBe('welcome-email');
    expect(failureOf(() => aliasForTemplateAlias('***')).errorCode).toBe(1101);
  });

  const importOf = (provider: string, items: { source_id: string; alias: string; status: string }[]) => ({
    head: { id: `imp_${provider}`, provider, dry_run: false },
    parts: [{ templates: { items } }],
  });

  function lookup(imports: ReturnType<typeof importOf>[]): ImportLookup {
    return {
      list: async () => ({ items: imports.map((i) => i.head), next_cursor: null }),
      parts: async (_account: string, id: string) => imports.find((i) => i.head.id === id)!.parts,
    } as unknown as ImportLookup;
  }

  it('finds a TemplateId in the template map of a Postmark import', async () => {
    const imports = lookup([
      importOf('sendgrid', [{ source_id: '123', alias: 'from-sendgrid', status: 'imported' }]),
      importOf('postmark', [
        { source_id: '7', alias: 'broken', status: 'failed' },
        { source_id: '123', alias: 'order-receipt', status: 'imported' },
      ]),
    ]);
    await expect(aliasForTemplateId(imports, 'acc', 123)).resolves.toBe('order-receipt');
    await expect(aliasForTemplateId(imports, 'acc', '123')).resolves.toBe('order-receipt');
  });

  it('answers 1101 for an id no Postmark import has (or only as a failed template), 300 for a non-number', async () => {
    const imports = lookup([importOf('postmark', [{ source_id: '7', alias: 'broken', status: 'failed' }])]);
    await expect(aliasForTemplateId(imports, 'acc', 7)).rejects.toMatchObject({ errorCode: 1101 });
    await expect(aliasForTemplateId(imports, 'acc', 999)).rejects.toMatchObject({ errorCode: 1101 });
    await expect(aliasForTemplateId(imports, 'acc', 'abc')).rejects.toMatchObject({ errorCode: 300 });
  });
});
