/**
 * The definition rules (shared/domain/automations/validate-definition.ts) through the request schemas: each
 * problem names its field (`steps.<i>.<field>`), all of them at once.
 */
import {
  createAutomationSchema,
  updateAutomationSchema,
  automationActionSchema,
  listAutomationsQuerySchema,
} from '#shared/domain/automations/schemas';
import { cycleProblems, placeholderProblems, successorsOf, validateDefinition } from '#shared/domain/automations/validate-definition';
import type { Step } from '#shared/domain/automations/automation';

const email = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  type: 'send_email',
  from: 'Acme <hi@example.com>',
  subject: 'Hi {{event.data.first_name}}',
  html: '<p>Hello</p>',
  ...extra,
});
const delay = (key: string, duration = '1 day', extra: Record<string, unknown> = {}) => ({ key, type: 'delay', duration, ...extra });
const body = (steps: unknown[], trigger: Record<string, unknown> = { event: 'user.created' }) => ({ name: 'Welcome', trigger, steps });

function problems(input: unknown): [string, string][] {
  const result = createAutomationSchema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
}
const fields = (input: unknown) => problems(input).map(([field]) => field);

describe('automation definitions', () => {
  it('accepts every step type and fills defaults (to: {{event.email}}, cancel_on_events: [], on_timeout: end)', () => {
    const parsed = createAutomationSchema.parse(
      body([
        email('welcome'),
        {
          key: 'templated',
          type: 'send_email',
          template: { id: 'welcome-v2', variables: { first_name: '{{event.data.first_name}}', n: 3, ok: true, none: null } },
          to: ['{{event.email}}', 'ops@example.com'],
          reply_to: 'help@example.com',
          category: 'product',
          unsubscribe: true,
          tags: { campaign: 'welcome' },
          tenant: '{{event.data.tenant}}',
        },
        delay('wait', '2 days'),
        { key: 'upgraded', type: 'wait_for_event', event: 'user.upgraded', timeout: 'P3D' },
        { key: 'is-pro', type: 'condition', field: 'event.data.plan', operator: 'eq', value: 'pro' },
        { key: 'done', type: 'send_email', from: 'billing', subject: 'Thanks', text: 'Unsubscribe: {{unsubscribe_url}}' },
      ]),
    );
    expect(parsed.status).toBeUndefined();
    expect(parsed.trigger).toEqual({ event: 'user.created', cancel_on_events: [] });
    expect(parsed.steps[0]).toMatchObject({ to: ['{{event.email}}'] });
    expect(parsed.steps[1]).toMatchObject({
      to: ['{{event.email}}', 'ops@example.com'],
      reply_to: ['help@example.com'],
      tags: [{ name: 'campaign', value: 'welcome' }],
    });
    expect(parsed.steps[3]).toEqual({ key: 'upgraded', type: 'wait_for_event', event: 'user.upgraded', timeout: 'P3D', on_timeout: 'end' });
    expect(parsed.steps[4]).toEqual({ key: 'is-pro', type: 'condition', field: 'event.data.plan', operator: 'eq', value: 'pro' });
  });

  describe('step types', () => {
    it('names an unknown type at steps.<i>.type and lists the types', () => {
      expect(problems(body([email('a'), { key: 'b', type: 'sms' }]))).toEqual([
        ['steps.1.type', 'unknown step type "sms": one of send_email, delay, wait_for_event, condition'],
      ]);
      expect(problems(body([{ key: 'b' }]))).toEqual([
        ['steps.0.type', 'type is required: one of send_email, delay, wait_for_event, condition'],
      ]);
      expect(fields(body(['delay']))).toEqual(['steps.0']);
    });

    it('refuses unknown fields of a step', () => {
      expect(fields(body([delay('a', '1 day', { durration: '2 days' })]))).toEqual(['steps.0']);
      expect(problems(body([{ key: 'c', type: 'condition', field: 'event.name', operator: 'exists', extra: 1 }]))).toEqual([
        ['steps.0.extra', 'unknown condition field "extra" (a rule is {field, operator, value?})'],
      ]);
    });

    it('needs 1-50 steps', () => {
      expect(fields(body([]))).toEqual(['steps']);
      expect(fields(body(Array.from({ length: 51 }, (_, i) => delay(`d${i}`))))).toEqual(['steps']);
      expect(fields(body(Array.from({ length: 50 }, (_, i) => delay(`d${i}`))))).toEqual([]);
    });
  });

  describe('send_email', () => {
    it('needs from, subject and a body without a template; refuses html/text with one', () => {
      expect(fields(body([{ key: 'e', type: 'send_email' }]))).toEqual(['steps.0.from', 'steps.0.subject', 'steps.0.html']);
      expect(fields(body([{ key: 'e', type: 'send_email', template: { id: 'welcome' }, html: '<p>x</p>', text: 'x' }]))).toEqual([
        'steps.0.html',
        'steps.0.text',
      ]);
      expect(fields(body([{ key: 'e', type: 'send_email', template: { id: 'Not An Alias' } }]))).toEqual(['steps.0.template.id']);
      expect(fields(body([{ key: 'e', type: 'send_email', template: { id: 'welcome' } }]))).toEqual([]);
    });

    it('checks placeholders: event values only, closed braces; names the field', () => {
      expect(problems(body([email('e', { subject: 'Hi {{event.foo}}' })]))).toEqual([
        ['steps.0.subject', '{{event.foo}}: unknown event value "event.foo": the event has name, email, user_id and data.<key>'],
      ]);
      expect(fields(body([email('e', { html: '<p>{{first_name}}</p>' })]))).toEqual(['steps.0.html']);
      expect(fields(body([email('e', { html: '<p>{{event.name</p>' })]))).toEqual(['steps.0.html']);
      expect(fields(body([email('e', { html: '{{event.data.}}' })]))).toEqual(['steps.0.html']);
      expect(fields(body([email('e', { subject: '{{unsubscribe_url}}' })]))).toEqual(['steps.0.subject']);
      expect(
        fields(
          body([
            email('e', {
              to: '{{event.data.manager}}',
              html: '{{ event.data.user.first_name }} {{event.user_id}} {{event.name}} {{unsubscribe_url}}',
            }),
          ]),
        ),
      ).toEqual([]);
      expect(fields(body([{ key: 'e', type: 'send_email', template: { id: 'w', variables: { a: '{{event.nope}}' } } }]))).toEqual([
        'steps.0.template.variables.a',
      ]);
      expect(fields(body([{ key: 'e', type: 'send_email', template: { id: 'w', variables: { a: { nested: 1 } } } }]))).toEqual([
        'steps.0.template.variables.a',
      ]);
    });

    it('checks addresses that hold no placeholder', () => {
      expect(fields(body([email('e', { to: 'not an address' })]))).toEqual(['steps.0.to.0']);
      expect(fields(body([email('e', { from: 'a@@b' })]))).toEqual(['steps.0.from']);
      expect(fields(body([email('e', { to: [] })]))).toEqual(['steps.0.to']);
      expect(fields(body([email('e', { to: Array.from({ length: 51 }, (_, i) => `u${i}@example.com`) })]))).toEqual(['steps.0.to']);
    });

    it('checks category, tags, unsubscribe and sizes', () => {
      expect(fields(body([email('e', { category: 'marketing', tags: [{ name: 'a b', value: 'c' }], unsubscribe: 'yes' })]))).toEqual([
        'steps.0.category',
        'steps.0.unsubscribe',
        'steps.0.tags.0.name',
      ]);
      expect(fields(body([email('e', { html: 'x'.repeat(100 * 1024 + 1) })]))).toEqual(['steps.0.html']);
      expect(fields(body([email('e', { subject: 'two\nlines' })]))).toEqual(['steps.0.subject']);
    });
  });

  describe('delay and wait_for_event', () => {
    it('limits delays to 1 minute - 365 days and names accepted forms', () => {
      expect(problems(body([delay('d', '366 days')]))).toEqual([['steps.0.duration', '"366 days" is longer than the maximum of 365 days']]);
      expect(problems(body([delay('d', 'PT30S')]))).toEqual([['steps.0.duration', '"PT30S" is shorter than the minimum of 1 minute']]);
      expect(problems(body([delay('d', 'tomorrow')]))[0]![1]).toMatch(/is not a duration: write a number and a unit/);
      expect(fields(body([{ key: 'd', type: 'delay' }]))).toEqual(['steps.0.duration']);
      expect(fields(body([delay('d', '365 days'), delay('e', 'PT1M')]))).toEqual([]);
    });

    it('limits waits to 30 days; on_timeout is end, continue or an existing key', () => {
      const wait = (extra: Record<string, unknown>) => ({
        key: 'w',
        type: 'wait_for_event',
        event: 'user.upgraded',
        timeout: '30 days',
        ...extra,
      });
      expect(fields(body([wait({})]))).toEqual([]);
      expect(problems(body([wait({ timeout: '31 days' })]))).toEqual([
        ['steps.0.timeout', '"31 days" is longer than the maximum of 30 days'],
      ]);
      expect(fields(body([wait({ event: 'bad name!' })]))).toEqual(['steps.0.event']);
      expect(fields(body([wait({ on_timeout: 'continue' }), delay('x')]))).toEqual([]);
      expect(fields(body([wait({ on_timeout: 'x' }), delay('x')]))).toEqual([]);
      expect(problems(body([wait({ on_timeout: 'missing' })]))).toEqual([
        ['steps.0.on_timeout', 'no step has key "missing" (on_timeout is end, continue or a step key)'],
      ]);
    });
  });

  describe('condition', () => {
    const cond = (extra: Record<string, unknown>) => ({ key: 'c', type: 'condition', ...extra });
    it('requires a value except for exists and is_empty, typed by the operator', () => {
      expect(problems(body([cond({ field: 'event.data.plan', operator: 'eq' })]))).toEqual([
        ['steps.0.value', 'value is required with eq'],
      ]);
      expect(fields(body([cond({ field: 'event.data.plan', operator: 'exists' })]))).toEqual([]);
      expect(fields(body([cond({ field: 'event.data.plan', operator: 'is_empty', value: 'x' })]))).toEqual(['steps.0.value']);
      expect(fields(body([cond({ field: 'event.data.n', operator: 'gt', value: '3' })]))).toEqual(['steps.0.value']);
      expect(fields(body([cond({ field: 'event.data.n', operator: 'gte', value: 3 })]))).toEqual([]);
      expect(fields(body([cond({ field: 'event.email', operator: 'ends_with', value: 1 })]))).toEqual(['steps.0.value']);
      expect(fields(body([cond({ field: 'event.data.vip', operator: 'eq', value: true })]))).toEqual([]);
      expect(fields(body([cond({ field: 'event.data.x', operator: 'eq', value: { a: 1 } })]))).toEqual(['steps.0.value']);
      expect(fields(body([cond({ field: 'event.data.x', operator: 'like', value: 'a' })]))).toEqual(['steps.0.operator']);
    });

    it('takes only event fields', () => {
      expect(fields(body([cond({ field: 'event.data.plan', operator: 'exists' })]))).toEqual([]);
      expect(fields(body([cond({ field: 'event.user_id', operator: 'exists' })]))).toEqual([]);
      expect(fields(body([cond({ field: 'event.payload', operator: 'exists' })]))).toEqual(['steps.0.field']);
      expect(fields(body([cond({ field: 'data.plan', operator: 'exists' })]))).toEqual(['steps.0.field']);
      expect(fields(body([cond({ operator: 'exists' })]))).toEqual(['steps.0.field']);
    });

    it('nests all/any groups up to 3 deep, naming the nested path', () => {
      const rule = { field: 'event.data.plan', operator: 'eq', value: 'pro' };
      expect(fields(body([cond({ all: [rule, { any: [rule, { all: [rule] }] }] })]))).toEqual([]);
      expect(problems(body([cond({ all: [{ any: [{ all: [{ any: [rule] }] }] }] })]))).toEqual([
        ['steps.0.all.0.any.0.all.0.any', 'all/any groups nest at most 3 deep'],
      ]);
      expect(fields(body([cond({ any: [rule, { field: 'event.data.n', operator: 'lt' }] })]))).toEqual(['steps.0.any.1.value']);
      expect(fields(body([cond({ all: [] })]))).toEqual(['steps.0.all']);
      expect(fields(body([cond({ all: [rule], field: 'event.name' })]))).toEqual(['steps.0.field']);
      expect(fields(body([cond({ all: Array.from({ length: 21 }, () => rule) })]))).toEqual(['steps.0.all']);
    });
  });

  describe('rules between steps', () => {
    it('keys are unique, well-formed, and not end/continue', () => {
      expect(problems(body([delay('a'), delay('a')]))).toEqual([['steps.1.key', 'key "a" is already used by steps.0: keys are unique']]);
      expect(fields(body([delay('Bad Key')]))).toEqual(['steps.0.key']);
      expect(fields(body([delay('end')]))).toEqual(['steps.0.key']);
      expect(fields(body([delay('x'.repeat(65))]))).toEqual(['steps.0.key']);
    });

    it('next names an existing step', () => {
      expect(problems(body([delay('a', '1 day', { next: 'zz' }), delay('b')]))).toEqual([['steps.0.next', 'no step has key "zz"']]);
      expect(fields(body([delay('a', '1 day', { next: 'c' }), delay('b'), delay('c')]))).toEqual([]);
    });

    it('refuses cycles, naming the jump where the cycle closes', () => {
      expect(problems(body([delay('a'), delay('b', '1 day', { next: 'a' })]))).toEqual([
        ['steps.1.next', 'jumping to "a" closes a cycle (a -> b -> a); automations may not loop: add the steps again instead'],
      ]);
      expect(problems(body([delay('a', '1 day', { next: 'a' })]))).toEqual([
        ['steps.0.next', 'step "a" jumps to itself: automations may not loop'],
      ]);
      // A cycle through on_timeout.
      expect(fields(body([delay('a'), { key: 'w', type: 'wait_for_event', event: 'x', timeout: '1 day', on_timeout: 'a' }]))).toEqual([
        'steps.1.on_timeout',
      ]);
      // A cycle through array order and a later jump (c -> d -> c), even when the first steps never reach it.
      expect(fields(body([delay('a'), delay('b', '1 day', { next: 'd' }), delay('c'), delay('d', '1 day', { next: 'c' })]))).toEqual([
        'steps.3.next',
      ]);
      expect(fields(body([delay('a'), delay('b'), delay('c'), delay('d', '1 day', { next: 'b' })]))).toEqual(['steps.3.next']);
    });

    it('allows backward jumps that never come back', () => {
      // c jumps back to a, a -> b -> d (end): c is never reached again.
      expect(fields(body([delay('a'), delay('b', '1 day', { next: 'd' }), delay('c', '1 day', { next: 'a' }), delay('d')]))).toEqual([]);
    });

    it('the trigger never cancels itself; cancel_on_events are unique, at most 10', () => {
      expect(problems(body([delay('a')], { event: 'signup', cancel_on_events: ['purchase', 'signup'] }))).toEqual([
        ['trigger.cancel_on_events.1', '"signup" is the trigger\'s own event: it would cancel every run it starts'],
      ]);
      expect(fields(body([delay('a')], { event: 'signup', cancel_on_events: ['x', 'x'] }))).toEqual(['trigger.cancel_on_events.1']);
      expect(fields(body([delay('a')], { event: 'signup', cancel_on_events: Array.from({ length: 11 }, (_, i) => `e${i}`) }))).toEqual([
        'trigger.cancel_on_events',
      ]);
      expect(fields(body([delay('a')], { event: 'bad event' }))).toEqual(['trigger.event']);
      expect(fields(body([delay('a')], { event: 'x'.repeat(101) }))).toEqual(['trigger.event']);
      expect(fields(body([delay('a')], { event: 'Order:paid.v2_x-y' }))).toEqual([]);
      expect(fields({ name: 'x', steps: [delay('a')] })).toEqual(['trigger']);
    });

    it('lists every problem of a body at once', () => {
      expect(
        fields(
          body([{ key: 'x', type: 'sms' }, delay('d', '400 days'), { key: 'c', type: 'condition', field: 'event.data.n', operator: 'gt' }]),
        ),
      ).toEqual(['steps.0.type', 'steps.1.duration', 'steps.2.value']);
    });

    it('bounds the whole definition to 256 KB', () => {
      const big = Array.from({ length: 4 }, (_, i) => email(`e${i}`, { html: 'x'.repeat(90 * 1024) }));
      expect(fields(body(big))).toEqual(['steps']);
    });
  });

  it('successorsOf follows next, array order and on_timeout', () => {
    const steps = createAutomationSchema.parse(
      body([
        delay('a', '1 day', { next: 'c' }),
        { key: 'w', type: 'wait_for_event', event: 'x', timeout: '1 day', on_timeout: 'c' },
        delay('c'),
      ]),
    ).steps as Step[];
    expect(successorsOf(steps, 0)).toEqual([{ field: 'next', target: 2 }]);
    expect(successorsOf(steps, 1)).toEqual([
      { field: null, target: 2 },
      { field: 'on_timeout', target: 2 },
    ]);
    expect(successorsOf(steps, 2)).toEqual([]);
    expect(cycleProblems(steps)).toEqual([]);
  });

  it('validateDefinition reports shapes, then rules, with field paths', () => {
    expect(validateDefinition({ trigger: { event: 'a' }, steps: [delay('a'), delay('a')] })).toEqual({
      ok: false,
      problems: [{ field: 'steps.1.key', message: expect.any(String) }],
    });
    expect(validateDefinition({ trigger: { event: 'a' }, steps: [{ key: 'a', type: 'nope' }] })).toEqual({
      ok: false,
      problems: [{ field: 'steps.0.type', message: expect.any(String) }],
    });
    expect(validateDefinition({ trigger: { event: 'a' }, steps: [delay('a')] })).toMatchObject({
      ok: true,
      trigger: { event: 'a', cancel_on_events: [] },
    });
  });

  it('placeholderProblems allows spaces inside braces and caps its list', () => {
    expect(placeholderProblems('{{ event.email }}')).toEqual([]);
    expect(placeholderProblems('{{x}}'.repeat(20))).toHaveLength(10);
  });
});

describe('other request schemas', () => {
  it('create takes status draft or active only; unknown fields refused', () => {
    expect(createAutomationSchema.parse({ ...body([delay('a')]), status: 'active' }).status).toBe('active');
    expect(fields({ ...body([delay('a')]), status: 'paused' })).toEqual(['status']);
    expect(fields({ ...body([delay('a')]), connections: [] })).toEqual(['']);
    expect(fields({ ...body([delay('a')]), name: ' ' })).toEqual(['name']);
    expect(fields({ ...body([delay('a')]), name: 'x'.repeat(201) })).toEqual(['name']);
  });

  it('update needs one of name, trigger, steps and refuses status', () => {
    expect(updateAutomationSchema.safeParse({}).success).toBe(false);
    expect(updateAutomationSchema.safeParse({ status: 'active' }).error?.issues[0]?.path).toEqual(['status']);
    expect(updateAutomationSchema.parse({ name: 'x' })).toEqual({ name: 'x' });
  });

  it('action is activate or pause; list query limits and statuses', () => {
    expect(automationActionSchema.parse({ action: 'pause' })).toEqual({ action: 'pause' });
    expect(automationActionSchema.safeParse({ action: 'stop' }).success).toBe(false);
    expect(listAutomationsQuerySchema.parse({})).toEqual({ limit: 25 });
    expect(listAutomationsQuerySchema.parse({ limit: '5', status: 'active' })).toEqual({ limit: 5, status: 'active' });
    expect(listAutomationsQuerySchema.safeParse({ status: 'running' }).success).toBe(false);
  });
});
