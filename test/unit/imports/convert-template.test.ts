/** Template conversion (spec rules 4-5): placeholders, layouts, blocks, unsubscribe links, aliases, limits. */
import { aliasFor, convertTemplate, templateCreateInput, type ConvertedTemplate } from '#shared/domain/imports/convert-template';
import type { SourceTemplate } from '#shared/domain/imports/source';
import { renderTemplate } from '#shared/domain/templates/render';
import { createTemplateSchema } from '#shared/domain/templates/schemas';
import { TEMPLATE_ALIAS } from '#shared/domain/templates/template';

const template = (overrides: Partial<SourceTemplate> = {}): SourceTemplate => ({
  source_id: 'tpl-1',
  name: 'Welcome',
  alias: 'welcome',
  subject: 'Hello',
  html: '<p>Hi</p>',
  text: null,
  syntax: 'handlebars',
  layout: null,
  ...overrides,
});

const converted: ConvertedTemplate[] = [];
/** Every conversion of this file, checked against createTemplateSchema at the end. */
function convert(source: SourceTemplate): ConvertedTemplate {
  const result = convertTemplate(source);
  converted.push(result);
  return result;
}

describe('placeholders', () => {
  it('turns dotted, triple-brace, whitespace, @root and this. forms of one template into flat {{name}}', () => {
    const result = convert(
      template({
        subject: 'Welcome {{ user.first_name }}!',
        html: '<p>{{user.first_name}} {{{ bio_html }}} {{  plan  }} {{@root.company.name}} {{this.city}} {{& raw}}</p>',
        text: 'Hi {{user.first_name}}, {{{bio_html}}}',
      }),
    );
    expect(result.subject).toBe('Welcome {{user_first_name}}!');
    expect(result.html).toBe('<p>{{user_first_name}} {{bio_html}} {{plan}} {{company_name}} {{city}} {{raw}}</p>');
    expect(result.text).toBe('Hi {{user_first_name}}, {{bio_html}}');
    expect(result.variables).toEqual(
      ['user_first_name', 'bio_html', 'plan', 'company_name', 'city', 'raw'].map((key) => ({ key, type: 'string' })),
    );
    expect(result).toMatchObject({ status: 'imported', publish: true, category: 'transactional', unsubscribe_enabled: false });
    expect(result.notes.join('\n')).toMatch(/\{\{user\.first_name\}\} -> \{\{user_first_name\}\}/);
    expect(result.notes.join('\n')).toMatch(/\{\{\{ bio_html \}\}\} -> \{\{bio_html\}\}.*HTML-escaped/);
  });

  it('makes the result render with our renderer, escaping what was a triple-brace value', () => {
    const result = convert(template({ html: '<div>{{{ note }}} {{ user.name }}</div>' }));
    const rendered = renderTemplate({ subject: result.subject, html: result.html }, result.variables, {
      note: '<b>x</b>',
      user_name: 'Ada',
    });
    expect(rendered.html).toBe('<div>&lt;b&gt;x&lt;/b&gt; Ada</div>');
    expect(rendered.warnings).toEqual([]);
  });

  it('converts go placeholders ({{.x}}, {{ $.a.b }}, trim markers)', () => {
    const result = convert(template({ syntax: 'go', html: 'Hi {{.name}} {{ $.user.first_name }} {{- .plan -}}' }));
    expect(result.html).toBe('Hi {{name}} {{user_first_name}} {{plan}}');
    expect(result.status).toBe('imported');
  });

  it('declares each variable once, first use first, across subject, html and text', () => {
    const result = convert(template({ subject: '{{b}}', html: '{{a}} {{b}} {{ a }}', text: '{{c}} {{a}}' }));
    expect(result.variables.map((variable) => variable.key)).toEqual(['b', 'a', 'c']);
  });

  it('declares at most 50 variables (the rest still render) and says so', () => {
    const html = Array.from({ length: 55 }, (_, i) => `{{v${i}}}`).join(' ');
    const result = convert(template({ html }));
    expect(result.variables).toHaveLength(50);
    expect(result.variables[49]).toEqual({ key: 'v49', type: 'string' });
    expect(result.html).toContain('{{v54}}');
    expect(result.notes.join('\n')).toMatch(/55 variables; the first 50 are declared/);
  });
});

describe('layouts (Postmark)', () => {
  it('merges the template into the layout at {{{ @content }}}, html into html and text into text', () => {
    const result = convert(
      template({
        syntax: 'mustachio',
        html: '<p>Hi {{ name }}, pay $& now</p>',
        text: 'Hi {{name}}',
        layout: {
          alias: 'basic',
          html: '<html><body>{{{ @content }}}<footer>{{company}}</footer></body></html>',
          text: '{{{@content}}}\n-- {{company}}',
        },
      }),
    );
    expect(result.html).toBe('<html><body><p>Hi {{name}}, pay $& now</p><footer>{{company}}</footer></body></html>');
    expect(result.text).toBe('Hi {{name}}\n-- {{company}}');
    expect(result.variables.map((variable) => variable.key)).toEqual(['name', 'company']);
    expect(result.notes[0]).toMatch(/Merged layout "basic"/);
    expect(result.status).toBe('imported');
  });

  it('keeps a body the template lacks null, and a layout without {{{@content}}} unused (note)', () => {
    const result = convert(
      template({
        syntax: 'mustachio',
        html: '<p>Body</p>',
        text: null,
        layout: { alias: 'broken', html: '<div>no placeholder</div>', text: 'Footer {{{@content}}}' },
      }),
    );
    expect(result.html).toBe('<p>Body</p>');
    expect(result.text).toBeNull();
    expect(result.notes[0]).toMatch(/Layout "broken" has no \{\{\{@content\}\}\} placeholder in its html/);
  });
});

describe('blocks stay as written, the template is a draft', () => {
  it('keeps handlebars loops and conditionals with their inner placeholders exactly', () => {
    const html =
      '<p>{{user.name}}</p>{{#each items}}<li>{{this.name}} {{{this.price}}} {{@index}}</li>{{/each}}{{#if user.vip}}VIP {{user.tier}}{{else}}Regular{{/if}}{{#unless paid}}Pay{{/unless}}<p>{{ total }}</p>';
    const result = convert(template({ html }));
    expect(result.html).toBe(
      '<p>{{user_name}}</p>{{#each items}}<li>{{this.name}} {{{this.price}}} {{@index}}</li>{{/each}}{{#if user.vip}}VIP {{user.tier}}{{else}}Regular{{/if}}{{#unless paid}}Pay{{/unless}}<p>{{total}}</p>',
    );
    expect(result.variables.map((variable) => variable.key)).toEqual(['user_name', 'total']);
    expect(result).toMatchObject({ status: 'needs_attention', publish: false, category: 'transactional', unsubscribe_enabled: false });
    expect(result.notes.join('\n')).toMatch(/blocks \{\{#each\}\}, \{\{#if\}\}, \{\{else\}\}, \{\{#unless\}\} are kept as written/);
  });

  it('keeps mustachio sections and inverted sections, nested ones too', () => {
    const html = '{{#person}}Hi {{first.name}}{{#pets}}{{name}}{{/pets}}{{/person}}{{^items}}No items{{/items}} Bye {{ sign.off }}';
    const result = convert(template({ syntax: 'mustachio', html }));
    expect(result.html).toBe(
      '{{#person}}Hi {{first.name}}{{#pets}}{{name}}{{/pets}}{{/person}}{{^items}}No items{{/items}} Bye {{sign_off}}',
    );
    expect(result.variables.map((variable) => variable.key)).toEqual(['sign_off']);
    expect(result.status).toBe('needs_attention');
    expect(result.notes.join('\n')).toMatch(/\{\{#person\}\}, \{\{#pets\}\}, \{\{\^items\}\}/);
  });

  it('keeps go if/range/with blocks', () => {
    const html = '{{if .vip}}VIP {{.name}}{{else}}-{{end}}{{range .items}}{{.title}}{{end}}{{with .user}}{{.email}}{{end}} {{.footer}}';
    const result = convert(template({ syntax: 'go', html }));
    expect(result.html).toBe(
      '{{if .vip}}VIP {{.name}}{{else}}-{{end}}{{range .items}}{{.title}}{{end}}{{with .user}}{{.email}}{{end}} {{footer}}',
    );
    expect(result.variables.map((variable) => variable.key)).toEqual(['footer']);
    expect(result.notes.join('\n')).toMatch(/\{\{if\}\}, \{\{else\}\}, \{\{range\}\}, \{\{with\}\}/);
    expect(result.publish).toBe(false);
  });

  it('keeps a block in the subject', () => {
    const result = convert(template({ subject: '{{#if urgent}}URGENT: {{/if}}Your order {{ order.id }}' }));
    expect(result.subject).toBe('{{#if urgent}}URGENT: {{/if}}Your order {{order_id}}');
    expect(result.status).toBe('needs_attention');
  });
});

describe('unsubscribe links', () => {
  it.each([
    [
      'SendGrid group',
      'handlebars',
      '<a href="<%asm_group_unsubscribe_raw_url%>">Unsubscribe</a>',
      '<a href="{{unsubscribe_url}}">Unsubscribe</a>',
    ],
    ['SendGrid global', 'handlebars', '<a href="<%asm_global_unsubscribe_raw_url%>">x</a>', '<a href="{{unsubscribe_url}}">x</a>'],
    [
      'SendGrid preferences',
      'sendgrid_legacy',
      '<a href="<%asm_preferences_raw_url%>">x</a> <%body%>',
      '<a href="{{unsubscribe_url}}">x</a> {{body}}',
    ],
    ['SendGrid triple', 'handlebars', '<a href="{{{unsubscribe}}}">x</a>', '<a href="{{unsubscribe_url}}">x</a>'],
    ['SendGrid double', 'handlebars', '<a href="{{unsubscribe}}">x</a>', '<a href="{{unsubscribe_url}}">x</a>'],
    ['SendGrid subscription tracking', 'handlebars', '<p>[Unsubscribe]</p>', '<p>{{unsubscribe_url}}</p>'],
    ['Postmark', 'mustachio', '<a href="{{{ pm:unsubscribe }}}">x</a>', '<a href="{{unsubscribe_url}}">x</a>'],
    ['Mailgun', 'handlebars', '<a href="%unsubscribe_url%">x</a>', '<a href="{{unsubscribe_url}}">x</a>'],
    ['Mailgun tag', 'go', '<a href="%tag_unsubscribe_url%">x</a>', '<a href="{{unsubscribe_url}}">x</a>'],
    ['Mailgun list', 'handlebars', '<a href="%mailing_list_unsubscribe_url%">x</a>', '<a href="{{unsubscribe_url}}">x</a>'],
  ] as [string, SourceTemplate['syntax'], string, string][])(
    '%s: becomes {{unsubscribe_url}}, a product draft with unsubscribe on',
    (_label, syntax, html, expected) => {
      const result = convert(template({ syntax, html }));
      expect(result.html).toBe(expected);
      expect(result).toMatchObject({ category: 'product', unsubscribe_enabled: true, publish: false, status: 'needs_attention' });
      expect(result.variables.map((variable) => variable.key)).not.toContain('unsubscribe_url');
      expect(result.variables.map((variable) => variable.key)).not.toContain('unsubscribe');
      expect(result.notes.join('\n')).toMatch(/became \{\{unsubscribe_url\}\}: imported as a draft in the product category/);
    },
  );

  it('converts the link inside a block too (a provider link left there would be dead)', () => {
    const result = convert(
      template({ html: '{{#if marketing}}<a href="{{{unsubscribe}}}">stop</a> {{user.name}}{{/if}}', text: 'Stop: %unsubscribe_url%' }),
    );
    expect(result.html).toBe('{{#if marketing}}<a href="{{unsubscribe_url}}">stop</a> {{user.name}}{{/if}}');
    expect(result.text).toBe('Stop: {{unsubscribe_url}}');
    expect(result.category).toBe('product');
  });

  it('treats our own {{unsubscribe_url}} in a source as an unsubscribe link', () => {
    const result = convert(template({ html: '<a href="{{unsubscribe_url}}">x</a>' }));
    expect(result).toMatchObject({
      html: '<a href="{{unsubscribe_url}}">x</a>',
      category: 'product',
      unsubscribe_enabled: true,
      status: 'needs_attention',
    });
  });
});

describe('subjects', () => {
  it.each([null, '', '   '])('gives a template without a subject ({{subject}}) (%j)', (subject) => {
    const result = convert(template({ subject, html: '<p>{{name}}</p>' }));
    expect(result.subject).toBe('{{subject}}');
    expect(result.variables.map((variable) => variable.key)).toEqual(['subject', 'name']);
    expect(result.status).toBe('imported');
    expect(result.notes.join('\n')).toMatch(/no subject/);
  });

  it('makes a subject one line', () => {
    const result = convert(template({ subject: 'Line one\r\nline two\nthree\rfour' }));
    expect(result.subject).toBe('Line one line two three four');
    expect(result.notes.join('\n')).toMatch(/line breaks/);
  });
});

describe('SendGrid legacy templates', () => {
  it('turns <%body%> and <%subject%> into {{body}} and {{subject}}, published, with a note on escaping', () => {
    const result = convert(
      template({ syntax: 'sendgrid_legacy', subject: '<%subject%>', html: '<table><tr><td><%body%></td></tr></table>', text: '<%body%>' }),
    );
    expect(result).toMatchObject({
      subject: '{{subject}}',
      html: '<table><tr><td>{{body}}</td></tr></table>',
      text: '{{body}}',
      status: 'imported',
      publish: true,
    });
    expect(result.variables.map((variable) => variable.key)).toEqual(['subject', 'body']);
    expect(result.notes.join('\n')).toMatch(/<%body%> -> \{\{body\}\}.*HTML-escaped/);
  });

  it('leaves an unknown <%tag%> as written, as a draft', () => {
    const result = convert(template({ syntax: 'sendgrid_legacy', html: '<%body%> <%sender_name%>' }));
    expect(result.html).toBe('{{body}} <%sender_name%>');
    expect(result.status).toBe('needs_attention');
    expect(result.notes.join('\n')).toMatch(/Left as written.*<%sender_name%>/);
  });
});

describe('other forms are left as written, as a draft', () => {
  it.each([
    ['a helper', '{{formatDate created_at "YYYY"}}'],
    ['SendGrid insert', '{{insert name "default=Customer"}}'],
    ['a partial', '{{> footer}}'],
    ['a comment', '{{! internal }}'],
    ['a name with a dash', '{{first-name}}'],
    ['a literal segment', '{{[first name]}}'],
    ['an unclosed brace', 'Hi {{name'],
  ])('%s', (_label, token) => {
    const result = convert(template({ html: `<p>${token}</p> {{ok}}` }));
    expect(result.html).toContain(token);
    expect(result).toMatchObject({ status: 'needs_attention', publish: false, category: 'transactional' });
    expect(result.notes.join('\n')).toMatch(/Left as written/);
  });
});

describe('failures (returned, not thrown)', () => {
  it('fails a template whose html is over 100 KB once its layout is merged', () => {
    const result = convert(
      template({
        syntax: 'mustachio',
        html: 'x'.repeat(60 * 1024),
        layout: { alias: 'big', html: `${'y'.repeat(50 * 1024)}{{{@content}}}`, text: null },
      }),
    );
    expect(result).toMatchObject({ status: 'failed', publish: false });
    expect(result.notes.join('\n')).toMatch(/Not imported: the html is \d+ bytes with its layout; the limit is 102400/);
  });

  it('fails a template whose text is over 50 KB', () => {
    const result = convert(template({ html: null, text: 'é'.repeat(26 * 1024) }));
    expect(result.status).toBe('failed');
    expect(result.notes.join('\n')).toMatch(/the text is 53248 bytes; the limit is 51200/);
  });

  it('fails a template with neither html nor text', () => {
    expect(convert(template({ html: '', text: null }))).toMatchObject({
      status: 'failed',
      html: null,
      text: null,
      notes: ['Not imported: it has neither html nor text.'],
    });
  });

  it('fails a subject over 998 characters', () => {
    expect(convert(template({ subject: 's'.repeat(999) })).status).toBe('failed');
    expect(convert(template({ subject: 's'.repeat(998) })).status).toBe('imported');
  });
});

describe('names and aliases', () => {
  const alias = (name: string, providerAlias: string | null = null, source_id = 'd-0123abcd') =>
    aliasFor({ name, alias: providerAlias, source_id });

  it('keeps the provider alias when it is a valid alias of ours', () => {
    expect(alias('Anything', 'order-shipped_v2')).toBe('order-shipped_v2');
  });

  it.each([
    ['Welcome Email', 'Welcome-Email', 'welcome-email'],
    ['  Password   Reset!! ', null, 'password-reset'],
    ['Café Crème Brûlée', null, 'cafe-creme-brulee'],
    ['--_Order #42 (copy)_--', null, 'order-42-copy'],
    ['snake_case_name', 'template.name', 'snake_case_name'],
  ])('slugs the name %j (provider alias %j) -> %s', (name, providerAlias, expected) => {
    expect(alias(name, providerAlias)).toBe(expected);
  });

  it('cuts a long slug to 64 characters without a trailing dash', () => {
    const result = alias(`${'a'.repeat(63)} b c`);
    expect(result).toBe('a'.repeat(63));
    expect(alias('x'.repeat(100))).toHaveLength(64);
  });

  it('falls back to the provider alias slug, then to template-<source id>', () => {
    expect(alias('日本語のテンプレート', 'Ünïcode Alias')).toBe('unicode-alias');
    expect(alias('日本語', null, 'd-0123ABCD')).toBe('template-d-0123abcd');
    expect(alias('', null, '1234')).toBe('template-1234');
    expect(alias('   ', null, '')).toBe('template');
    expect(alias('🎉', null, `${'9'.repeat(80)}`)).toHaveLength(64);
  });

  it('always answers a valid alias', () => {
    for (const name of ['', 'A', '-', '_x_', 'ÅÄÖ', '💌 Newsletter', 'x'.repeat(300), 'a/b\\c', 'UPPER']) {
      for (const providerAlias of [null, 'Bad Alias', 'ok']) expect(alias(name, providerAlias)).toMatch(TEMPLATE_ALIAS);
    }
  });

  it('names a template without a name by its alias, and cuts a long name to 200', () => {
    expect(convert(template({ name: '  ', alias: 'welcome' })).name).toBe('welcome');
    const long = convert(template({ name: 'n'.repeat(250) }));
    expect(long.name).toHaveLength(200);
    expect(long.notes.join('\n')).toMatch(/cut to 200/);
  });
});

describe('the create input', () => {
  it('is what POST /templates takes, for every template of this file that did not fail', () => {
    const ok = converted.filter((result) => result.status !== 'failed');
    expect(ok.length).toBeGreaterThan(30);
    for (const result of ok) {
      const parsed = createTemplateSchema.safeParse(templateCreateInput(result));
      if (!parsed.success) throw new Error(`${result.source_id} ${result.html}: ${JSON.stringify(parsed.error.issues)}`);
      expect(parsed.data).toMatchObject({
        alias: result.alias,
        category: result.category,
        unsubscribe_enabled: result.unsubscribe_enabled,
      });
    }
  });

  it('is refused for what failed (so the status matters)', () => {
    const failed = converted.filter((result) => result.status === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(4);
    for (const result of failed) expect(createTemplateSchema.safeParse(templateCreateInput(result)).success).toBe(false);
  });
});
