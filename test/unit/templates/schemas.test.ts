/** /templates request validation, and the item size of a template at every limit (both versions). */
import { issuesToFields } from '#shared/domain/request-validation';
import { createTemplateSchema, renderTemplateSchema, updateTemplateSchema } from '#shared/domain/templates/schemas';
import { TEMPLATE_LIMITS, type Template } from '#shared/domain/templates/template';
import { TemplateRepository } from '#shared/adapters/store/templates';

const valid = { name: 'Welcome', alias: 'welcome', subject: 'Hi {{name}}', html: '<p>Hi</p>' };

function fieldsOf(schema: typeof createTemplateSchema | typeof updateTemplateSchema, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : issuesToFields(result.error.issues).map((f) => f.field);
}

describe('createTemplateSchema', () => {
  it('accepts the minimum and fills defaults', () => {
    expect(createTemplateSchema.parse(valid)).toEqual(valid);
    expect(createTemplateSchema.parse({ ...valid, reply_to: 'Support <help@example.com>', from: 'Acme <hi@example.com>' })).toMatchObject({
      reply_to: ['Support <help@example.com>'],
      from: 'Acme <hi@example.com>',
    });
    expect(createTemplateSchema.parse({ ...valid, from: 'billing' }).from).toBe('billing');
  });

  it('checks alias, subject, bodies and their sizes', () => {
    expect(fieldsOf(createTemplateSchema, { ...valid, alias: 'Welcome' })).toEqual(['alias']);
    expect(fieldsOf(createTemplateSchema, { ...valid, alias: '-x' })).toEqual(['alias']);
    expect(fieldsOf(createTemplateSchema, { ...valid, alias: 'a'.repeat(65) })).toEqual(['alias']);
    expect(fieldsOf(createTemplateSchema, { ...valid, alias: 'a'.repeat(64) })).toEqual([]);
    expect(fieldsOf(createTemplateSchema, { ...valid, subject: 'a\r\nBcc: x@example.com' })).toEqual(['subject']);
    expect(fieldsOf(createTemplateSchema, { ...valid, subject: 'a'.repeat(999) })).toEqual(['subject']);
    expect(fieldsOf(createTemplateSchema, { ...valid, html: undefined })).toEqual(['html']);
    expect(fieldsOf(createTemplateSchema, { ...valid, html: null, text: null })).toEqual(['html']);
    expect(fieldsOf(createTemplateSchema, { ...valid, html: '' })).toEqual(['html']);
    expect(fieldsOf(createTemplateSchema, { ...valid, html: '€'.repeat(34_134) })).toEqual(['html']);
    expect(fieldsOf(createTemplateSchema, { ...valid, html: '€'.repeat(34_133) })).toEqual([]);
    expect(fieldsOf(createTemplateSchema, { ...valid, text: 'a'.repeat(50 * 1024 + 1) })).toEqual(['text']);
    expect(fieldsOf(createTemplateSchema, { ...valid, from: 'not an address' })).toEqual(['from']);
    expect(fieldsOf(createTemplateSchema, { ...valid, reply_to: ['ok@example.com', 'nope'] })).toEqual(['reply_to.1']);
    expect(fieldsOf(createTemplateSchema, { ...valid, reply_to: 'nope' })).toEqual(['reply_to.0']);
    expect(fieldsOf(createTemplateSchema, { ...valid, reply_to: 42 })).toEqual(['reply_to']);
    const unknown = createTemplateSchema.safeParse({ ...valid, unsubscribe: false });
    expect(unknown.success).toBe(false);
    expect(issuesToFields(unknown.error!.issues)).toEqual([{ field: '(body)', message: expect.stringContaining('unsubscribe') }]);
  });

  it('defaults and guards unsubscribe_enabled by category (spec rule 10)', () => {
    expect(fieldsOf(createTemplateSchema, { ...valid, category: 'product', unsubscribe_enabled: false })).toEqual(['unsubscribe_enabled']);
    expect(fieldsOf(createTemplateSchema, { ...valid, category: 'newsletter', unsubscribe_enabled: false })).toEqual([
      'unsubscribe_enabled',
    ]);
    expect(fieldsOf(createTemplateSchema, { ...valid, category: 'transactional', unsubscribe_enabled: true })).toEqual([]);
    expect(fieldsOf(createTemplateSchema, { ...valid, category: 'marketing' })).toEqual(['category']);
  });

  it('checks variables: keys, reserved names, duplicates, types of fallbacks, count', () => {
    const withVariables = (variables: unknown) => fieldsOf(createTemplateSchema, { ...valid, variables });
    expect(createTemplateSchema.parse({ ...valid, variables: [{ key: 'name', type: 'string' }] }).variables).toEqual([
      { key: 'name', type: 'string', fallback_value: null },
    ]);
    expect(withVariables([{ key: 'unsubscribe_url', type: 'string' }])).toEqual(['variables.0.key']);
    expect(withVariables([{ key: '1a', type: 'string' }])).toEqual(['variables.0.key']);
    expect(withVariables([{ key: 'user.name', type: 'string' }])).toEqual(['variables.0.key']);
    expect(withVariables([{ key: 'a'.repeat(65), type: 'string' }])).toEqual(['variables.0.key']);
    expect(withVariables([{ key: 'a', type: 'date' }])).toEqual(['variables.0.type']);
    expect(withVariables([{ key: 'a', type: 'number', fallback_value: '3' }])).toEqual(['variables.0.fallback_value']);
    expect(withVariables([{ key: 'a', type: 'string', fallback_value: 3 }])).toEqual(['variables.0.fallback_value']);
    expect(withVariables([{ key: 'a', type: 'string', fallback_value: 'x'.repeat(201) }])).toEqual(['variables.0.fallback_value']);
    expect(
      withVariables([
        { key: 'a', type: 'number', fallback_value: 3 },
        { key: 'a', type: 'string' },
      ]),
    ).toEqual(['variables.1.key']);
    expect(withVariables(Array.from({ length: 51 }, (_, i) => ({ key: `v${i}`, type: 'string' })))).toEqual(['variables']);
  });
});

describe('updateTemplateSchema', () => {
  it('takes any create field but alias, null clearing html, text and from', () => {
    expect(updateTemplateSchema.parse({ html: null, from: null })).toEqual({ html: null, from: null });
    expect(fieldsOf(updateTemplateSchema, { alias: 'other' })).toEqual(['alias']);
    expect(fieldsOf(updateTemplateSchema, {})).toEqual(['(body)']);
    expect(fieldsOf(updateTemplateSchema, { subject: 'a\nb' })).toEqual(['subject']);
    expect(new Set(fieldsOf(updateTemplateSchema, { nope: 1 }))).toEqual(new Set(['(body)']));
  });
});

describe('renderTemplateSchema', () => {
  it('names each value that is not a string, number, boolean or null', () => {
    expect(renderTemplateSchema.parse({})).toEqual({});
    const result = renderTemplateSchema.safeParse({ variables: { ok: 1, order: { id: 1 }, list: [] } });
    expect(result.success).toBe(false);
    expect(issuesToFields(result.error!.issues).map((f) => f.field)).toEqual(['variables.order', 'variables.list']);
    expect(renderTemplateSchema.safeParse({ variables: [1] }).success).toBe(false);
  });
});

/** DynamoDB's item size: attribute names and values (strings and names in UTF-8 bytes; numbers up to 21 bytes). */
function itemSize(item: Record<string, unknown>): number {
  const size = (value: unknown): number => {
    if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
    if (typeof value === 'number') return 21;
    if (typeof value === 'boolean' || value === null) return 1;
    if (Array.isArray(value)) return 3 + value.reduce((sum: number, element) => sum + 1 + size(element), 0);
    return (
      3 +
      Object.entries(value as Record<string, unknown>).reduce(
        (sum, [name, inner]) => sum + Buffer.byteLength(name, 'utf8') + 1 + size(inner),
        0,
      )
    );
  };
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name, 'utf8') + size(value), 0);
}

/** A template at every limit, in characters of 3 UTF-8 bytes wherever a field takes them. */
function largestTemplateInput(alias = 'a'.repeat(64)) {
  const wide = (chars: number) => '€'.repeat(chars);
  const address = (i: number) => `"${wide(TEMPLATE_LIMITS.addressChars - 30)}" <r${i}@example.com>`;
  return {
    name: wide(TEMPLATE_LIMITS.nameChars),
    alias,
    subject: wide(TEMPLATE_LIMITS.subjectChars),
    html: wide(Math.floor(TEMPLATE_LIMITS.htmlBytes / 3)),
    text: wide(Math.floor(TEMPLATE_LIMITS.textBytes / 3)),
    from: address(0),
    reply_to: Array.from({ length: TEMPLATE_LIMITS.replyTo }, (_, i) => address(i + 1)),
    category: 'newsletter' as const,
    variables: Array.from({ length: TEMPLATE_LIMITS.variables }, (_, i) => ({
      key: `v${String(i).padStart(2, '0')}${'k'.repeat(TEMPLATE_LIMITS.variableKeyChars - 3)}`,
      type: 'string' as const,
      fallback_value: wide(TEMPLATE_LIMITS.fallbackChars),
    })),
  };
}

describe('a template at every limit', () => {
  it('fits one DynamoDB item (400 KB) with its draft and its published version', async () => {
    const input = createTemplateSchema.parse(largestTemplateInput());
    const items: Record<string, unknown>[] = [];
    const client = {
      send: async (command: { input: { TransactItems: { Put?: { Item: Record<string, unknown> } }[] } }) =>
        items.push(command.input.TransactItems[0]!.Put!.Item),
    };
    const now = new Date('2026-11-22T10:00:00.000Z').toISOString();
    const template: Template = {
      ...input,
      id: 'tpl_01JZZZZZZZZZZZZZZZZZZZZZZZ',
      account_id: 'acc_01JZZZZZZZZZZZZZZZZZZZZZZZ',
      html: input.html!,
      text: input.text!,
      from: input.from!,
      reply_to: input.reply_to!,
      category: input.category!,
      unsubscribe_enabled: true,
      variables: input.variables!,
      revision: 1_000_000_000,
      published: null,
      created_at: now,
      updated_at: now,
    };
    await new TemplateRepository({ client: client as never, name: 'table' }).create(template, 1000);
    const {
      published: _none,
      revision: _revision,
      name: _name,
      id: _id,
      account_id: _account,
      alias: _alias,
      created_at: _c,
      updated_at: _u,
      ...content
    } = template;
    const item = { ...items[0]!, published: { ...content, version: 1_000_000_000, published_at: now } };
    expect(itemSize(item)).toBeLessThan(400 * 1024);
  });
});
