/** The template renderer: substitution, fallbacks, escaping, warnings, reserved names, linear time. */
import {
  checkVariableValues,
  MAX_RENDERED_CHARS,
  MAX_WARNINGS_PER_CODE,
  RenderTooLargeError,
  renderTemplate,
  RESERVED_VARIABLES,
  variableValueProblems,
  type RenderWarning,
  type TemplateVariable,
} from '#shared/domain/templates/render';

const str = (key: string, fallback_value: string | null = null): TemplateVariable => ({ key, type: 'string', fallback_value });
const num = (key: string, fallback_value: number | null = null): TemplateVariable => ({ key, type: 'number', fallback_value });
const codes = (warnings: RenderWarning[]) => warnings.map((w) => w.code);

describe('renderTemplate', () => {
  it('substitutes values in subject, html and text', () => {
    const out = renderTemplate(
      { subject: 'Hi {{name}}', html: '<p>Hello {{name}}, order {{order}}</p>', text: 'Hello {{name}}, order {{order}}' },
      [str('name'), num('order')],
      { name: 'Ada', order: 42 },
    );
    expect(out).toEqual({ subject: 'Hi Ada', html: '<p>Hello Ada, order 42</p>', text: 'Hello Ada, order 42', warnings: [], missing: [] });
  });

  it('accepts spaces (and tabs) inside the braces', () => {
    const out = renderTemplate({ subject: '{{ name }}|{{name }}|{{  name}}|{{\tname\t}}' }, [str('name')], { name: 'x' });
    expect(out.subject).toBe('x|x|x|x');
    expect(out.warnings).toEqual([]);
  });

  it('keeps html and text null when absent', () => {
    const out = renderTemplate({ subject: 's' }, [], {});
    expect(out).toEqual({ subject: 's', html: null, text: null, warnings: [], missing: [] });
    expect(renderTemplate({ subject: 's', html: null, text: 'b' }, [], {}).html).toBeNull();
  });

  it('uses the declared fallback when no value is given, or the value is null', () => {
    const declared = [str('name', 'there'), num('count', 3)];
    expect(renderTemplate({ subject: 'Hi {{name}} ({{count}})' }, declared, {}).subject).toBe('Hi there (3)');
    expect(renderTemplate({ subject: 'Hi {{name}}' }, declared, { name: null }).subject).toBe('Hi there');
    expect(renderTemplate({ subject: 'Hi {{name}}' }, declared, { name: '' }).subject).toBe('Hi ');
    expect(renderTemplate({ subject: 'Hi {{name}}' }, declared, { name: 'Bo' }).subject).toBe('Hi Bo');
  });

  it('stringifies numbers and booleans', () => {
    const out = renderTemplate({ subject: '{{a}} {{b}} {{c}} {{d}}' }, [str('a'), str('b'), str('c'), str('d')], {
      a: 1.5,
      b: 0,
      c: true,
      d: false,
    });
    expect(out.subject).toBe('1.5 0 true false');
  });

  it('HTML-escapes values in html only', () => {
    const value = `<script>alert("x")</script> & 'y'`;
    const out = renderTemplate({ subject: '{{v}}', html: '<p>{{v}}</p>', text: '{{v}}' }, [str('v')], { v: value });
    expect(out.html).toBe('<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p>');
    expect(out.text).toBe(value);
    expect(out.subject).toBe(value);
    // Fallbacks are values too.
    expect(renderTemplate({ subject: 's', html: '{{v}}' }, [str('v', '<b>')], {}).html).toBe('&lt;b&gt;');
  });

  it('never lets a value break the subject line: CR, LF and other control characters become spaces', () => {
    const out = renderTemplate({ subject: 'Re: {{v}}', text: '{{v}}' }, [str('v')], { v: 'a\r\nBcc: evil@example.com\u0000\tz\u007f' });
    expect(out.subject).toBe('Re: a  Bcc: evil@example.com  z ');
    expect(out.text).toBe('a\r\nBcc: evil@example.com\u0000\tz\u007f');
  });

  it('leaves a variable without value or fallback as written, lists it once in missing, warns once', () => {
    const out = renderTemplate(
      { subject: 'Hi {{ name }}', html: '<p>{{name}} {{other}}</p>', text: '{{name}}' },
      [str('name'), str('other')],
      {},
    );
    expect(out.subject).toBe('Hi {{ name }}');
    expect(out.html).toBe('<p>{{name}} {{other}}</p>');
    expect(out.missing).toEqual(['name', 'other']);
    expect(out.warnings).toEqual([
      { code: 'missing_variable', message: expect.stringContaining('"name"'), variable: 'name', field: 'subject' },
      { code: 'missing_variable', message: expect.stringContaining('"other"'), variable: 'other', field: 'html' },
    ]);
    expect(out.warnings[0]!.message).toContain('subject');
  });

  it('warns about undeclared variables and still substitutes them when given', () => {
    const given = renderTemplate({ subject: '{{x}}', text: '{{x}}' }, [], { x: 'v' });
    expect(given.subject).toBe('v');
    expect(given.warnings).toEqual([
      { code: 'undeclared_variable', message: expect.stringMatching(/"x".*subject/), variable: 'x', field: 'subject' },
    ]);
    const missing = renderTemplate({ subject: '{{x}}' }, [], {});
    expect(codes(missing.warnings)).toEqual(['undeclared_variable', 'missing_variable']);
    expect(missing.missing).toEqual(['x']);
  });

  it('warns about values that no placeholder uses and no variable declares', () => {
    const out = renderTemplate({ subject: '{{a}}' }, [str('a'), str('declared_unused')], { a: '1', declared_unused: '2', stray: '3' });
    expect(out.warnings).toEqual([{ code: 'unknown_variable', message: expect.stringContaining('"stray"'), variable: 'stray' }]);
  });

  it('leaves {{unsubscribe_url}} for the send worker: never substituted, missing or warned about', () => {
    expect(RESERVED_VARIABLES).toEqual(['unsubscribe_url']);
    const out = renderTemplate(
      { subject: 'x {{unsubscribe_url}}', html: '<a href="{{ unsubscribe_url }}">u</a>', text: '{{unsubscribe_url}}' },
      [],
      { unsubscribe_url: 'https://evil.example/' },
    );
    expect(out).toEqual({
      subject: 'x {{unsubscribe_url}}',
      html: '<a href="{{unsubscribe_url}}">u</a>',
      text: '{{unsubscribe_url}}',
      warnings: [],
      missing: [],
    });
  });

  it('warns about unbalanced braces per field and leaves them as written', () => {
    const out = renderTemplate({ subject: 'a {{name b', html: '<style>p{x:1}}</style>{{name}}', text: '{{ {{name}} }}' }, [str('name')], {
      name: 'N',
    });
    expect(out.subject).toBe('a {{name b');
    expect(out.html).toBe('<style>p{x:1}}</style>N');
    expect(out.text).toBe('{{ N }}');
    expect(out.warnings.map((w) => [w.code, w.field])).toEqual([
      ['unbalanced_braces', 'subject'],
      ['unbalanced_braces', 'html'],
      ['unbalanced_braces', 'text'],
      ['unbalanced_braces', 'text'],
    ]);
    expect(out.warnings[0]!.message).toMatch(/"\{\{" without a matching "\}\}"/);
    expect(out.warnings[1]!.message).toMatch(/"\}\}" without a matching "\{\{"/);
  });

  it('warns about placeholders that are not names (blocks, dots, triple braces) and leaves them', () => {
    const text = '{{#if x}}y{{/if}} {{user.name}} {{{raw}}} {{}} {{1abc}} {{ a b }}';
    const out = renderTemplate({ subject: 's', text }, [], { user: 'u', raw: 'r' });
    expect(out.text).toBe(text);
    const invalid = out.warnings.filter((w) => w.code === 'invalid_placeholder');
    expect(invalid.map((w) => w.message.match(/"([^"]*)"/)![1])).toEqual([
      '{{#if x}}',
      '{{/if}}',
      '{{user.name}}',
      '{{{raw}}}',
      '{{}}',
      '{{1abc}}',
      '{{ a b }}',
    ]);
    expect(invalid.every((w) => w.field === 'text' && w.variable === undefined)).toBe(true);
    // The values given for names only used inside invalid placeholders are unknown.
    expect(out.warnings.filter((w) => w.code === 'unknown_variable').map((w) => w.variable)).toEqual(['user', 'raw']);
  });

  it('names each warning code with a human message naming the variable or field', () => {
    const out = renderTemplate({ subject: '{{a}} {{b', html: '{{x.y}}', text: '{{c}}' }, [str('a')], { c: '1', d: '2' });
    expect(new Set(codes(out.warnings))).toEqual(
      new Set(['missing_variable', 'undeclared_variable', 'unknown_variable', 'unbalanced_braces', 'invalid_placeholder']),
    );
    for (const warning of out.warnings)
      expect(warning.message).toMatch(warning.variable ? new RegExp(`"${warning.variable}"`) : new RegExp(warning.field!));
  });

  it('reads only own values: Object.prototype names are not values', () => {
    const out = renderTemplate({ subject: '{{constructor}} {{toString}}' }, [], {});
    expect(out.subject).toBe('{{constructor}} {{toString}}');
    expect(out.missing).toEqual(['constructor', 'toString']);
  });

  it('treats values that are not text (objects, arrays) as absent', () => {
    const out = renderTemplate({ subject: '{{a}}|{{b}}' }, [str('a', 'fa')], { a: { x: 1 }, b: [1] });
    expect(out.subject).toBe('fa|{{b}}');
    expect(out.missing).toEqual(['b']);
  });

  it('bounds the warnings of one code', () => {
    const text = Array.from({ length: 500 }, (_, i) => `{{a.b${i}}}`).join(' ');
    const out = renderTemplate({ subject: 's', text }, [], {});
    expect(out.warnings).toHaveLength(MAX_WARNINGS_PER_CODE);
    expect(out.text).toBe(text);
  });

  it('refuses a rendering larger than MAX_RENDERED_CHARS (a long value in many placeholders)', () => {
    const html = '{{v}}'.repeat(20_000);
    expect(() => renderTemplate({ subject: 's', html }, [str('v')], { v: 'x'.repeat(100) })).toThrow(RenderTooLargeError);
    expect(() =>
      renderTemplate({ subject: 's', html }, [str('v')], { v: 'x'.repeat(Math.floor(MAX_RENDERED_CHARS / 20_000) - 1) }),
    ).not.toThrow();
  });

  it('is linear: 100 KB of braces and unbalanced text render quickly', () => {
    const inputs = [
      '{{{{{{'.repeat(17_067),
      '}}}}}}'.repeat(17_067),
      `${'{{ '.repeat(34_134)}}}`,
      '{{a'.repeat(34_134),
      `{{${' '.repeat(102_400)}x`,
      `{{${'a'.repeat(102_400)} b}}`,
      '{{x}}{'.repeat(17_067),
      '{'.repeat(51_200) + '}'.repeat(51_200),
    ];
    // No timing assertion (speed lives in benchmarks): a backtracking renderer would not finish these
    // within the test's timeout, a linear one does in milliseconds.
    for (const html of inputs) {
      const out = renderTemplate({ subject: 's', html, text: html }, [str('x')], { x: 'v' });
      expect(out.html!.length).toBeGreaterThan(0);
    }
  });
});

describe('checkVariableValues', () => {
  it('accepts strings, numbers, booleans and null, and nothing at all', () => {
    expect(checkVariableValues({ a: 'x', b: 1, c: true, d: null })).toEqual([]);
    expect(checkVariableValues(undefined)).toEqual([]);
    expect(checkVariableValues({})).toEqual([]);
  });

  it('refuses objects and arrays, naming the variable', () => {
    expect(checkVariableValues({ order: { id: 1 }, items: [1, 2], ok: 'x' })).toEqual([
      'variables.order: must be a string, number or boolean (got an object)',
      'variables.items: must be a string, number or boolean (got an array)',
    ]);
    expect(checkVariableValues({ order: {} }, 'template.variables')).toEqual([
      'template.variables.order: must be a string, number or boolean (got an object)',
    ]);
  });

  it('refuses anything but an object', () => {
    for (const values of [null, 'x', 1, [1]])
      expect(checkVariableValues(values)).toEqual(['variables: must be an object of variable name to value']);
    expect(variableValueProblems([])).toEqual([{ key: null, message: 'must be an object of variable name to value' }]);
  });
});
