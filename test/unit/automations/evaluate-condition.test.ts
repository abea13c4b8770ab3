import type { Condition, ConditionOperator } from '#shared/domain/automations/automation';
import { evaluateCondition, lookupEventValue, type AutomationEvent } from '#shared/domain/automations/evaluate-condition';

const event: AutomationEvent = {
  name: 'user.created',
  email: 'Ada@BigCo.com',
  user_id: 'u_1',
  data: {
    plan: 'free',
    seats: 5,
    ratio: 0.5,
    trial: true,
    nothing: null,
    blank: '',
    five: '5',
    tags: ['a', 'b', 5],
    noTags: [],
    empty: {},
    company: { name: 'Acme', size: 12, address: { city: 'Paris' } },
  },
};

const rule = (field: string, operator: ConditionOperator, value?: string | number | boolean): Condition =>
  value === undefined ? { field, operator } : { field, operator, value };
const run = (condition: Condition, on: AutomationEvent = event) => evaluateCondition(condition, on);
const is = (field: string, operator: ConditionOperator, value?: string | number | boolean) => run(rule(field, operator, value)).result;

describe('lookupEventValue', () => {
  it('reads the top-level fields and nested data paths', () => {
    expect(lookupEventValue(event, 'event.name')).toEqual({ found: true, value: 'user.created' });
    expect(lookupEventValue(event, 'event.email')).toEqual({ found: true, value: 'Ada@BigCo.com' });
    expect(lookupEventValue(event, 'event.user_id')).toEqual({ found: true, value: 'u_1' });
    expect(lookupEventValue(event, 'event.data.company.address.city')).toEqual({ found: true, value: 'Paris' });
    expect(lookupEventValue(event, 'event.data.nothing')).toEqual({ found: true, value: null });
  });

  it('finds nothing for absent keys, null email/user_id, paths through non-objects, inherited keys and invalid paths', () => {
    for (const path of [
      'event.data.absent',
      'event.data.company.absent',
      'event.data.plan.length',
      'event.data.tags.0',
      'event.data.nothing.x',
      'event.data.constructor',
      'event.data.company.toString',
      'event.data.__proto__',
      'event.foo',
      'event.data.',
      'name',
    ]) {
      expect([path, lookupEventValue(event, path)]).toEqual([path, { found: false }]);
    }
    expect(lookupEventValue({ ...event, email: null, user_id: null }, 'event.email')).toEqual({ found: false });
    expect(lookupEventValue({ ...event, email: null, user_id: null }, 'event.user_id')).toEqual({ found: false });
  });
});

describe('evaluateCondition: operators', () => {
  it.each<[string, ConditionOperator, string | number | boolean | undefined, boolean]>([
    // eq / neq: strict, by JSON type
    ['event.data.plan', 'eq', 'free', true],
    ['event.data.plan', 'eq', 'Free', false],
    ['event.data.plan', 'neq', 'pro', true],
    ['event.data.plan', 'neq', 'free', false],
    ['event.data.seats', 'eq', 5, true],
    ['event.data.seats', 'eq', '5', false],
    ['event.data.five', 'eq', 5, false],
    ['event.data.five', 'eq', '5', true],
    ['event.data.five', 'neq', 5, true],
    ['event.data.trial', 'eq', true, true],
    ['event.data.trial', 'eq', 'true', false],
    ['event.data.trial', 'neq', false, true],
    ['event.data.trial', 'eq', 1, false],
    ['event.data.company', 'eq', '[object Object]', false],
    ['event.data.company', 'neq', 'x', true],
    ['event.data.tags', 'eq', 'a', false],
    ['event.data.nothing', 'eq', 'null', false],
    ['event.data.nothing', 'neq', 'x', true],
    ['event.name', 'eq', 'user.created', true],
    ['event.email', 'eq', 'ada@bigco.com', false],
    ['event.user_id', 'eq', 'u_1', true],
    ['event.data.company.name', 'eq', 'Acme', true],
    // numeric comparisons: numbers only
    ['event.data.seats', 'gt', 4, true],
    ['event.data.seats', 'gt', 5, false],
    ['event.data.seats', 'gte', 5, true],
    ['event.data.seats', 'gte', 6, false],
    ['event.data.seats', 'lt', 6, true],
    ['event.data.seats', 'lt', 5, false],
    ['event.data.seats', 'lte', 5, true],
    ['event.data.seats', 'lte', 4.99, false],
    ['event.data.ratio', 'lt', 1, true],
    ['event.data.company.size', 'gte', 10, true],
    ['event.data.five', 'gt', 1, false],
    ['event.data.five', 'lt', 10, false],
    ['event.data.plan', 'gt', 0, false],
    ['event.data.trial', 'gte', 0, false],
    ['event.data.nothing', 'lte', 0, false],
    ['event.data.tags', 'gt', 0, false],
    ['event.data.seats', 'gt', '4', false],
    // text operators: case-sensitive
    ['event.data.plan', 'contains', 're', true],
    ['event.data.plan', 'contains', 'RE', false],
    ['event.data.plan', 'contains', '', true],
    ['event.email', 'ends_with', '@BigCo.com', true],
    ['event.email', 'ends_with', '@bigco.com', false],
    ['event.email', 'starts_with', 'Ada', true],
    ['event.email', 'starts_with', 'BigCo', false],
    ['event.data.tags', 'contains', 'a', true],
    ['event.data.tags', 'contains', 'c', false],
    ['event.data.tags', 'contains', '5', false],
    ['event.data.noTags', 'contains', 'a', false],
    ['event.data.seats', 'contains', '5', false],
    ['event.data.company', 'contains', 'Acme', false],
    ['event.data.tags', 'starts_with', 'a', false],
    ['event.data.seats', 'ends_with', '5', false],
    ['event.data.nothing', 'starts_with', '', false],
    // exists / is_empty
    ['event.data.plan', 'exists', undefined, true],
    ['event.data.nothing', 'exists', undefined, true],
    ['event.data.blank', 'exists', undefined, true],
    ['event.data.company.address', 'exists', undefined, true],
    ['event.data.blank', 'is_empty', undefined, true],
    ['event.data.nothing', 'is_empty', undefined, true],
    ['event.data.noTags', 'is_empty', undefined, true],
    ['event.data.empty', 'is_empty', undefined, true],
    ['event.data.plan', 'is_empty', undefined, false],
    ['event.data.seats', 'is_empty', undefined, false],
    ['event.data.tags', 'is_empty', undefined, false],
    ['event.data.company', 'is_empty', undefined, false],
    ['event.data.trial', 'is_empty', undefined, false],
  ])('%s %s %j is %s', (field, operator, value, expected) => {
    expect(is(field, operator, value)).toBe(expected);
  });

  it('treats 0, false and " " as present and not empty', () => {
    const odd: AutomationEvent = { ...event, data: { zero: 0, no: false, space: ' ' } };
    for (const key of ['zero', 'no', 'space']) {
      expect(run(rule(`event.data.${key}`, 'is_empty'), odd).result).toBe(false);
      expect(run(rule(`event.data.${key}`, 'exists'), odd).result).toBe(true);
    }
    expect(run(rule('event.data.zero', 'eq', 0), odd).result).toBe(true);
    expect(run(rule('event.data.no', 'eq', false), odd).result).toBe(true);
  });
});

describe('evaluateCondition: missing values', () => {
  const operators: [ConditionOperator, string | number | boolean | undefined][] = [
    ['eq', 'x'],
    ['neq', 'x'],
    ['eq', 0],
    ['neq', false],
    ['gt', 0],
    ['gte', 0],
    ['lt', 0],
    ['lte', 0],
    ['contains', ''],
    ['starts_with', ''],
    ['ends_with', ''],
    ['exists', undefined],
    ['is_empty', undefined],
  ];

  it.each(operators)('%s %j is false on a missing data key, a missing nested key and a path through a non-object', (operator, value) => {
    for (const field of ['event.data.absent', 'event.data.company.absent', 'event.data.plan.x', 'event.data.nothing.x']) {
      const { result, trace } = run(rule(field, operator, value));
      expect(result).toBe(false);
      expect(trace[0]).toMatch(/: missing -> false$/);
    }
  });

  it.each(operators)('%s %j is false on a null email or user_id', (operator, value) => {
    const anonymous: AutomationEvent = { ...event, email: null, user_id: null };
    expect(run(rule('event.email', operator, value), anonymous).result).toBe(false);
    expect(run(rule('event.user_id', operator, value), anonymous).result).toBe(false);
  });

  it('is false when data itself is not an object (odd stored data)', () => {
    const odd = { ...event, data: null } as unknown as AutomationEvent;
    expect(run(rule('event.data.plan', 'exists'), odd).result).toBe(false);
  });
});

describe('evaluateCondition: groups', () => {
  it('all is true only when every member is; any when at least one is', () => {
    const yes = rule('event.data.plan', 'eq', 'free');
    const no = rule('event.data.plan', 'eq', 'pro');
    expect(run({ all: [yes, yes] }).result).toBe(true);
    expect(run({ all: [yes, no] }).result).toBe(false);
    expect(run({ any: [no, yes] }).result).toBe(true);
    expect(run({ any: [no, no] }).result).toBe(false);
    expect(run({ all: [yes] }).result).toBe(true);
    expect(run({ any: [no] }).result).toBe(false);
  });

  it('evaluates nested groups (3 levels) and traces each member, indented', () => {
    const condition: Condition = {
      all: [
        rule('event.data.plan', 'eq', 'free'),
        {
          any: [
            rule('event.data.seats', 'gte', 10),
            { all: [rule('event.email', 'ends_with', '@BigCo.com'), rule('event.data.absent', 'exists')] },
            rule('event.data.trial', 'eq', true),
          ],
        },
      ],
    };
    const { result, trace } = run(condition);
    expect(result).toBe(true);
    expect(trace).toEqual([
      'all (2 of 2 true) -> true',
      '  event.data.plan eq "free": "free" -> true',
      '  any (1 of 3 true) -> true',
      '    event.data.seats gte 10: 5 -> false',
      '    all (1 of 2 true) -> false',
      '      event.email ends_with "@BigCo.com": "Ada@BigCo.com" -> true',
      '      event.data.absent exists: missing -> false',
      '    event.data.trial eq true: true -> true',
    ]);
  });

  it('evaluates a condition step as stored (key, type and next alongside the rule or group)', () => {
    const step = {
      key: 'still-free',
      type: 'condition',
      next: 'x',
      field: 'event.data.plan',
      operator: 'eq',
      value: 'free',
    } as unknown as Condition;
    expect(run(step)).toEqual({ result: true, trace: ['event.data.plan eq "free": "free" -> true'] });
    const group = { key: 'g', type: 'condition', any: [rule('event.data.plan', 'eq', 'pro')] } as unknown as Condition;
    expect(run(group).result).toBe(false);
  });

  it('refuses empty groups (validation forbids them): false, not vacuous truth', () => {
    expect(run({ all: [] })).toEqual({ result: false, trace: ['invalid condition (all must be a non-empty array) -> false'] });
    expect(run({ any: [] }).result).toBe(false);
    expect(run({ all: [rule('event.name', 'exists'), { all: [] }] }).result).toBe(false);
  });
});

describe('evaluateCondition: trace', () => {
  it('shows the rule, what the event held and the result', () => {
    expect(run(rule('event.data.plan', 'eq', 'pro')).trace).toEqual(['event.data.plan eq "pro": "free" -> false']);
    expect(run(rule('event.data.tags', 'contains', 'a')).trace).toEqual(['event.data.tags contains "a": ["a","b",5] -> true']);
    expect(run(rule('event.data.blank', 'is_empty')).trace).toEqual(['event.data.blank is_empty: "" -> true']);
  });

  it('keeps long values short', () => {
    const long: AutomationEvent = { ...event, data: { bio: 'x'.repeat(10_000) } };
    const [line] = run(rule('event.data.bio', 'contains', 'y'), long).trace;
    expect(line!.length).toBeLessThan(150);
    expect(line).toMatch(/…: |… -> false$/);
  });
});

describe('evaluateCondition: never throws on odd data', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['a string', 'eq'],
    ['an array', [rule('event.name', 'exists')]],
    ['no field', { operator: 'exists' }],
    ['an invalid field', { field: 'event.foo', operator: 'exists' }],
    ['a non-string field', { field: 5, operator: 'exists' }],
    ['an unknown operator', { field: 'event.name', operator: 'matches', value: 'x' }],
    ['all not an array', { all: 'x' }],
    ['a non-scalar value', { field: 'event.data.company', operator: 'eq', value: { name: 'Acme' } }],
    ['a null value with neq', { field: 'event.data.plan', operator: 'neq', value: null }],
    ['a string value with gt', { field: 'event.data.five', operator: 'gt', value: '1' }],
    ['a number value with contains', { field: 'event.data.tags', operator: 'contains', value: 5 }],
  ])('%s is false', (_, condition) => {
    const outcome = run(condition as Condition);
    expect(outcome.result).toBe(false);
    expect(outcome.trace.length).toBeGreaterThan(0);
  });

  it('guards against groups nested far deeper than validation allows', () => {
    let condition: Condition = rule('event.name', 'exists');
    for (let i = 0; i < 1000; i++) condition = { all: [condition] };
    expect(run(condition).result).toBe(false);
  });

  it('handles circular and exotic data values', () => {
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    const odd: AutomationEvent = { ...event, data: { circular, big: 10n as unknown, nan: Number.NaN, inf: Number.POSITIVE_INFINITY } };
    expect(run(rule('event.data.circular', 'neq', 'x'), odd).result).toBe(true);
    expect(run(rule('event.data.circular.self.a', 'eq', 1), odd).result).toBe(true);
    expect(run(rule('event.data.big', 'gt', 1), odd).result).toBe(false);
    expect(run(rule('event.data.nan', 'lt', 1), odd).result).toBe(false);
    expect(run(rule('event.data.inf', 'gt', 1), odd).result).toBe(false);
  });
});
