import { addSuppressionsSchema, removeSuppressionSchema, suppressionFiltersSchema } from '#shared/domain/suppressions/schemas';

const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((i) => i.path.join('.')) ?? [];

describe('addSuppressionsSchema', () => {
  it('turns email or emails into one normalised, deduplicated list with reason manual', () => {
    expect(addSuppressionsSchema.parse({ email: ' A@Example.COM ' })).toEqual({
      emails: ['a@example.com'],
      reason: 'manual',
      tenant: undefined,
    });
    expect(addSuppressionsSchema.parse({ emails: ['b@x.io', 'A@x.io', 'B@X.IO'], reason: 'manual', tenant: ' t1 ' })).toEqual({
      emails: ['b@x.io', 'a@x.io'],
      reason: 'manual',
      tenant: 't1',
    });
  });

  it('names both fields when both or neither are given', () => {
    expect(paths(addSuppressionsSchema.safeParse({}))).toEqual(['email', 'emails']);
    expect(paths(addSuppressionsSchema.safeParse({ email: 'a@x.io', emails: ['b@x.io'] }))).toEqual(['email', 'emails']);
    // A bad address and the both-error are reported together.
    expect(paths(addSuppressionsSchema.safeParse({ email: 'bad', emails: ['b@x.io'] }))).toEqual(['email', 'email', 'emails']);
  });

  it('bounds emails to 1-1000 valid addresses', () => {
    expect(paths(addSuppressionsSchema.safeParse({ emails: [] }))).toEqual(['emails']);
    expect(paths(addSuppressionsSchema.safeParse({ emails: Array.from({ length: 1001 }, (_, i) => `u${i}@x.io`) }))).toEqual(['emails']);
    expect(addSuppressionsSchema.safeParse({ emails: Array.from({ length: 1000 }, (_, i) => `u${i}@x.io`) }).success).toBe(true);
    expect(paths(addSuppressionsSchema.safeParse({ emails: ['ok@x.io', 'no'] }))).toEqual(['emails.1']);
    expect(paths(addSuppressionsSchema.safeParse({ emails: 'a@x.io' }))).toEqual(['emails']);
  });

  it('accepts only manual as a reason and refuses unknown fields by name', () => {
    for (const reason of ['bounce', 'complaint', 'unsubscribe', ''])
      expect(paths(addSuppressionsSchema.safeParse({ email: 'a@x.io', reason }))).toEqual(['reason']);
    expect(paths(addSuppressionsSchema.safeParse({ email: 'a@x.io', categroy: 'newsletter' }))).toEqual(['categroy']);
    expect(paths(addSuppressionsSchema.safeParse({ email: 'a@x.io', tenant: '' }))).toEqual(['tenant']);
  });
});

describe('addSuppressionsSchema with a category (category opt-outs)', () => {
  it('turns the request into opt-outs of that category: no reason, same addresses and tenant', () => {
    expect(addSuppressionsSchema.parse({ emails: ['B@x.io', 'b@x.io', 'a@x.io'], category: 'product', tenant: 't1' })).toStrictEqual({
      emails: ['b@x.io', 'a@x.io'],
      category: 'product',
      tenant: 't1',
    });
    expect(addSuppressionsSchema.parse({ email: 'a@x.io', category: 'newsletter' })).toStrictEqual({
      emails: ['a@x.io'],
      category: 'newsletter',
      tenant: undefined,
    });
    // Without a category the output stays a suppression request.
    expect(addSuppressionsSchema.parse({ email: 'a@x.io' })).toStrictEqual({ emails: ['a@x.io'], reason: 'manual', tenant: undefined });
  });

  it('refuses transactional with its own explanation, and any other category', () => {
    const transactional = addSuppressionsSchema.safeParse({ email: 'a@x.io', category: 'transactional' });
    expect(transactional.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['category', 'transactional mail has no category opt-out; to stop all mail to the address, suppress it (leave category out)'],
    ]);
    for (const category of ['marketing', 'Product', '', 1, null]) {
      const result = addSuppressionsSchema.safeParse({ email: 'a@x.io', category });
      expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['category', 'category must be one of product, newsletter'],
      ]);
    }
  });

  it('refuses a reason together with a category (an opt-out has no reason), naming reason', () => {
    const result = addSuppressionsSchema.safeParse({ email: 'a@x.io', category: 'product', reason: 'manual' });
    expect(paths(result)).toEqual(['reason']);
    expect(result.error?.issues[0]?.message).toMatch(/no reason/);
    // Every problem at once: a bad address, both-fields, the reason.
    expect(paths(addSuppressionsSchema.safeParse({ email: 'bad', emails: ['b@x.io'], category: 'product', reason: 'manual' }))).toEqual([
      'email',
      'email',
      'emails',
      'reason',
    ]);
  });
});

describe('list and delete schemas', () => {
  it('filters: any stored reason, normalised email', () => {
    expect(suppressionFiltersSchema.parse({ reason: 'bounce', email: 'X@Y.io' })).toEqual({ reason: 'bounce', email: 'x@y.io' });
    expect(paths(suppressionFiltersSchema.safeParse({ reason: 'spam' }))).toEqual(['reason']);
  });

  it('filters: a category lists opt-outs, and refuses reason with it', () => {
    expect(suppressionFiltersSchema.parse({ category: 'product', email: 'X@Y.io', tenant: 't' })).toStrictEqual({
      category: 'product',
      email: 'x@y.io',
      tenant: 't',
    });
    expect(paths(suppressionFiltersSchema.safeParse({ category: 'product', reason: 'manual' }))).toEqual(['reason']);
    expect(suppressionFiltersSchema.safeParse({ category: 'transactional' }).error?.issues[0]?.message).toMatch(
      /transactional mail has no category opt-out/,
    );
    expect(paths(suppressionFiltersSchema.safeParse({ category: 'all' }))).toEqual(['category']);
  });

  it('delete takes an optional category (re-subscribe), never transactional', () => {
    expect(removeSuppressionSchema.parse({ email: 'A@B.io', category: 'newsletter' })).toStrictEqual({
      email: 'a@b.io',
      category: 'newsletter',
    });
    expect(paths(removeSuppressionSchema.safeParse({ email: 'a@b.io', category: 'transactional' }))).toEqual(['category']);
    expect(paths(removeSuppressionSchema.safeParse({ category: 'product' }))).toEqual(['email']);
  });

  it('delete needs an email', () => {
    const missing = removeSuppressionSchema.safeParse({});
    expect(missing.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['email', 'email is required']]);
    expect(removeSuppressionSchema.parse({ email: 'A@B.io', tenant: 't' })).toEqual({ email: 'a@b.io', tenant: 't' });
  });
});
