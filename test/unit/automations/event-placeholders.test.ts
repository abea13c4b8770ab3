import type { AutomationEvent } from '#shared/domain/automations/evaluate-condition';
import { fillEventPlaceholders, fillEventPlaceholdersDeep } from '#shared/domain/automations/event-placeholders';
import { placeholderProblems } from '#shared/domain/automations/validate-definition';

const event: AutomationEvent = {
  name: 'user.created',
  email: 'ada@example.com',
  user_id: 'u_1',
  data: {
    first_name: 'Ada',
    seats: 5,
    ratio: 0.25,
    trial: false,
    nothing: null,
    blank: '',
    tags: ['a', 'b'],
    company: { name: 'Acme & Sons', address: { city: 'Paris' } },
    'odd-key_1': 'ok',
    html: '<b>"Tom" & \'Jerry\'</b>',
  },
};

const fill = (text: string, options?: { escapeHtml?: boolean }, on: AutomationEvent = event) => fillEventPlaceholders(text, on, options);

describe('fillEventPlaceholders', () => {
  it.each([
    ['{{event.name}}', 'user.created'],
    ['{{event.email}}', 'ada@example.com'],
    ['{{event.user_id}}', 'u_1'],
    ['{{event.data.first_name}}', 'Ada'],
    ['{{event.data.seats}}', '5'],
    ['{{event.data.ratio}}', '0.25'],
    ['{{event.data.trial}}', 'false'],
    ['{{event.data.blank}}', ''],
    ['{{event.data.tags}}', '["a","b"]'],
    ['{{event.data.company}}', '{"name":"Acme & Sons","address":{"city":"Paris"}}'],
    ['{{event.data.company.address.city}}', 'Paris'],
    ['{{event.data.odd-key_1}}', 'ok'],
    ['{{ event.data.first_name }}', 'Ada'],
    ['{{   event.name\t}}', 'user.created'],
  ])('fills %s', (text, expected) => {
    expect(fill(text)).toEqual({ text: expected, missing: [] });
  });

  it('fills several placeholders in running text', () => {
    expect(fill('Hi {{event.data.first_name}}, welcome to {{ event.data.company.name }} ({{event.email}}).')).toEqual({
      text: 'Hi Ada, welcome to Acme & Sons (ada@example.com).',
      missing: [],
    });
  });

  it('makes missing values empty and lists each path once', () => {
    expect(
      fill(
        '[{{event.data.absent}}][{{ event.data.absent }}][{{event.data.company.absent}}][{{event.data.first_name.x}}][{{event.data.nothing}}]',
      ),
    ).toEqual({
      text: '[][][][][]',
      missing: ['event.data.absent', 'event.data.company.absent', 'event.data.first_name.x', 'event.data.nothing'],
    });
    expect(fill('To {{event.email}} / {{event.user_id}}', {}, { ...event, email: null, user_id: null })).toEqual({
      text: 'To  / ',
      missing: ['event.email', 'event.user_id'],
    });
  });

  it('does not walk inherited properties', () => {
    expect(fill('{{event.data.constructor}}{{event.data.company.toString}}{{event.data.__proto__}}')).toEqual({
      text: '',
      missing: ['event.data.constructor', 'event.data.company.toString', 'event.data.__proto__'],
    });
  });

  it('leaves every other {{...}} exactly as written', () => {
    const text =
      '{{unsubscribe_url}} {{ unsubscribe_url }} {{name}} {{ first_name }} {{event.foo}} {{event.data.}} {{event.data..a}} {{event}} {{events.name}} {{#if x}} {{{event.name}}} {{}} {{ }} {{event.data.a b}}';
    expect(fill(text)).toEqual({ text: text.replace('{{{event.name}}}', '{user.created}'), missing: [] });
  });

  it('leaves unclosed and stray braces alone', () => {
    expect(fill('{{event.name')).toEqual({ text: '{{event.name', missing: [] });
    expect(fill('event.name}}')).toEqual({ text: 'event.name}}', missing: [] });
    expect(fill('{{ {{event.name}}')).toEqual({ text: '{{ user.created', missing: [] });
    expect(fill('{event.name}')).toEqual({ text: '{event.name}', missing: [] });
  });

  it('does not fill placeholders that appear inside values (no second pass)', () => {
    const sneaky: AutomationEvent = { ...event, data: { a: '{{event.email}}', b: '{{event.data.a}}' } };
    expect(fill('{{event.data.a}} {{event.data.b}}', {}, sneaky)).toEqual({ text: '{{event.email}} {{event.data.a}}', missing: [] });
  });

  it('HTML-escapes values when asked, and only the values', () => {
    expect(fill('<p>{{event.data.html}}</p>', { escapeHtml: true })).toEqual({
      text: '<p>&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;</p>',
      missing: [],
    });
    expect(fill('<p>{{event.data.html}}</p>')).toEqual({ text: '<p><b>"Tom" & \'Jerry\'</b></p>', missing: [] });
    expect(fill('<a title="{{event.data.company}}">', { escapeHtml: true }).text).toBe(
      '<a title="{&quot;name&quot;:&quot;Acme &amp; Sons&quot;,&quot;address&quot;:{&quot;city&quot;:&quot;Paris&quot;}}">',
    );
    expect(fill('{{event.data.seats}} & {{unsubscribe_url}}', { escapeHtml: true }).text).toBe('5 & {{unsubscribe_url}}');
  });

  it('fills exactly the placeholders validation accepts as event values', () => {
    for (const text of ['{{event.name}}', '{{ event.data.a.b.c.d.e.f.g.h }}', '{{event.data.x}}']) {
      expect(placeholderProblems(text)).toEqual([]);
      expect(fill(text).text).not.toContain('{{');
    }
    for (const text of ['{{event.data.a.b.c.d.e.f.g.h.i}}', `{{event.data.${'x'.repeat(65)}}}`, '{{event.Name}}']) {
      expect(placeholderProblems(text)).not.toEqual([]);
      expect(fill(text)).toEqual({ text, missing: [] });
    }
  });

  it('survives odd values', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const odd: AutomationEvent = { ...event, data: { circular, big: 10n as unknown, nested: { u: undefined } } };
    expect(() => fill('{{event.data.circular}} {{event.data.big}}', {}, odd)).not.toThrow();
    expect(fill('{{event.data.big}}', {}, odd).text).toBe('10');
    expect(fill('{{event.data.nested.u}}', {}, odd)).toEqual({ text: '', missing: ['event.data.nested.u'] });
  });

  // No timing assertion (speed lives in benchmarks): a backtracking scanner would not finish these
  // within the test's timeout, a linear one does in milliseconds.
  it('finishes on pathological input (200 KB of "{{")', () => {
    for (const text of [
      '{{'.repeat(100_000),
      '{'.repeat(200_000),
      '{{ '.repeat(70_000),
      '{{event.data.'.repeat(16_000),
      `{{${'a'.repeat(200_000)}`,
      '{{event.name}}'.repeat(15_000),
    ]) {
      const result = fill(text, { escapeHtml: true });
      expect(result.text.length).toBeGreaterThan(0);
    }
  });
});

describe('fillEventPlaceholdersDeep', () => {
  it('fills every string in a JSON value, keeping keys and other values, with the union of missing', () => {
    const variables = {
      name: '{{event.data.first_name}}',
      seats: 3,
      vip: true,
      none: null,
      greeting: 'Hi {{ event.data.absent }}',
      nested: { list: ['{{event.email}}', '{{event.data.gone}}', 7, { deep: '{{event.data.absent}}' }] },
      '{{event.name}}': 'key kept',
    };
    const { value, missing } = fillEventPlaceholdersDeep(variables, event);
    expect(value).toEqual({
      name: 'Ada',
      seats: 3,
      vip: true,
      none: null,
      greeting: 'Hi ',
      nested: { list: ['ada@example.com', '', 7, { deep: '' }] },
      '{{event.name}}': 'key kept',
    });
    expect(missing).toEqual(['event.data.absent', 'event.data.gone']);
    expect(variables.name).toBe('{{event.data.first_name}}');
  });

  it('fills address lists and lone strings', () => {
    expect(fillEventPlaceholdersDeep(['{{event.email}}', 'Boss <{{event.data.company.address.city}}@acme.com>'], event)).toEqual({
      value: ['ada@example.com', 'Boss <Paris@acme.com>'],
      missing: [],
    });
    expect(fillEventPlaceholdersDeep('{{event.user_id}}', event)).toEqual({ value: 'u_1', missing: [] });
    expect(fillEventPlaceholdersDeep(42, event)).toEqual({ value: 42, missing: [] });
    expect(fillEventPlaceholdersDeep(null, event)).toEqual({ value: null, missing: [] });
  });

  it('passes escapeHtml through and leaves other placeholders', () => {
    expect(fillEventPlaceholdersDeep({ a: '{{event.data.html}}', b: '{{name}}' }, event, { escapeHtml: true }).value).toEqual({
      a: '&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;',
      b: '{{name}}',
    });
  });

  it('keeps a "__proto__" key as data, not as a prototype', () => {
    const input = JSON.parse('{"__proto__": {"polluted": "{{event.name}}"}}') as Record<string, unknown>;
    const { value } = fillEventPlaceholdersDeep(input, event);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    // biome-ignore lint/suspicious/noProto: reads the own "__proto__" key JSON.parse made, to prove it stayed data, not a prototype
    expect((value as Record<string, { polluted: string }>).__proto__!.polluted).toBe('user.created');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
