import { formatMailbox, isEmailAddress, parseMailbox } from '#shared/domain/mail/address';

describe('addresses', () => {
  it.each([
    ['a@b.co', { email: 'a@b.co' }],
    ['Acme <hello@acme.com>', { email: 'hello@acme.com', name: 'Acme' }],
    ['"Doe, Jane" <jane@x.io>', { email: 'jane@x.io', name: 'Doe, Jane' }],
    ['  <bare@x.io>  ', { email: 'bare@x.io' }],
  ])('parses %s', (input, expected) => {
    expect(parseMailbox(input)).toEqual(expected);
  });

  it.each(['plain', 'a@b', 'a@@b.co', 'a..b@c.co', 'Name <not-an-address>', 'x@-bad.com', 'Evil\r\nBcc: x <a@b.co>'])(
    'rejects %j',
    (input) => {
      expect(parseMailbox(input)).toBeNull();
    },
  );

  it('quotes display names that need it', () => {
    expect(formatMailbox({ email: 'a@b.co', name: 'Acme Inc' })).toBe('Acme Inc <a@b.co>');
    expect(formatMailbox({ email: 'a@b.co', name: 'Doe, "J"' })).toBe('"Doe, \\"J\\"" <a@b.co>');
    expect(formatMailbox({ email: 'a@b.co' })).toBe('a@b.co');
  });

  it('limits length', () => {
    expect(isEmailAddress(`${'a'.repeat(64)}@example.com`)).toBe(true);
    expect(isEmailAddress(`${'a'.repeat(65)}@example.com`)).toBe(false);
  });
});
