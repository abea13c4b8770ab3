import { addSuppressionsSchema, removeSuppressionSchema, suppressionFiltersSchema } from '../../../shared/domain/suppressions/schemas';

const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => result.error?.issues.map((i) => i.path.join('.')) ?? [];

describe('addSuppressionsSchema', () => {
  it('turns email or emails into one normalised, deduplicated list with reason manual', () => {
    expect(addSuppressionsSchema.parse({ email: ' A@Example.COM ' })).toEqual({ emails: ['a@example.com'], reason: 'manual', tenant: undefined });
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
    for (const reason of ['bounce', 'complaint', 'unsubscribe', '']) expect(paths(addSuppressionsSchema.safeParse({ email: 'a@x.io', reason }))).toEqual(['reason']);
    expect(paths(addSuppressionsSchema.safeParse({ email: 'a@x.io', category: 'newsletter' }))).toEqual(['category']);
    expect(paths(addSuppressionsSchema.safeParse({ email: 'a@x.io', tenant: '' }))).toEqual(['tenant']);
  });
});

describe('list and delete schemas', () => {
  it('filters: any stored reason, normalised email', () => {
    expect(suppressionFiltersSchema.parse({ reason: 'bounce', email: 'X@Y.io' })).toEqual({ reason: 'bounce', email: 'x@y.io' });
    expect(paths(suppressionFiltersSchema.safeParse({ reason: 'spam' }))).toEqual(['reason']);
  });

  it('delete needs an email', () => {
    const missing = removeSuppressionSchema.safeParse({});
    expect(missing.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['email', 'email is required']]);
    expect(removeSuppressionSchema.parse({ email: 'A@B.io', tenant: 't' })).toEqual({ email: 'a@b.io', tenant: 't' });
  });
});
