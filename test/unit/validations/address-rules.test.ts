/** Address validation's pure rules: syntax (RFC 5321/6531), role addresses, typo suggestions, verdict and score. */
import { isRoleAddress } from '#shared/domain/address-validation/role-addresses';
import { parseAddress } from '#shared/domain/address-validation/syntax';
import { editDistance, suggestDomain } from '#shared/domain/address-validation/typos';
import { assess, type AddressChecks } from '#shared/domain/address-validation/verdict';

describe('syntax', () => {
  it.each([
    ['jane@example.com', 'example.com'],
    ['Jane.Doe+news@Example.COM', 'example.com'],
    ["o'brien!#$%&*=?^_`{|}~-@example.co.uk", 'example.co.uk'],
    ['jane@example.com.', 'example.com'],
    ['jane@bücher.de', 'xn--bcher-kva.de'],
  ])('accepts %s (domain asked as %s)', (input, domain) => {
    expect(parseAddress(input)).toMatchObject({ valid: true, domain, smtputf8: false });
  });

  it('accepts a non-ASCII local part as SMTPUTF8 (RFC 6531), with an IDN domain in A-label form', () => {
    expect(parseAddress('用户@例子.广告')).toEqual({
      valid: true,
      local: '用户',
      domain: 'xn--fsqu00a.xn--4rr70v',
      unicodeDomain: '例子.广告',
      smtputf8: true,
    });
  });

  it.each([
    ['', 'empty'],
    ['jane.example.com', 'no_at_sign'],
    ['"jane doe"@example.com', 'quoted_local_part'],
    ['.jane@example.com', 'invalid_local_part'],
    ['ja..ne@example.com', 'invalid_local_part'],
    ['ja ne@example.com', 'invalid_local_part'],
    ['@example.com', 'invalid_local_part'],
    [`${'a'.repeat(65)}@example.com`, 'local_part_too_long'],
    [`${'é'.repeat(33)}@example.com`, 'local_part_too_long'],
    ['jane@[192.0.2.1]', 'address_literal'],
    ['jane@localhost', 'invalid_domain'],
    ['jane@exa_mple.com', 'invalid_domain'],
    ['jane@-example.com', 'invalid_domain'],
    ['jane@example', 'invalid_domain'],
    [`jane@${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`, 'too_long'],
  ])('refuses %j: %s', (input, problem) => {
    expect(parseAddress(input)).toEqual({ valid: false, problem });
  });
});

describe('role addresses', () => {
  it.each(['admin', 'Postmaster', 'info', 'support', 'noreply', 'no-reply', 'no_reply', 'do-not-reply', 'sales+eu', 'abuse'])(
    '%s is a role',
    (local) => {
      expect(isRoleAddress(local)).toBe(true);
    },
  );
  it.each(['jane', 'jane.doe', 'infos', 'administrator.jane', 'supporter'])('%s is a person', (local) => {
    expect(isRoleAddress(local)).toBe(false);
  });
});

describe('typo suggestions', () => {
  it.each([
    ['gmial.com', 'gmail.com'],
    ['gmal.com', 'gmail.com'],
    ['gmail.con', 'gmail.com'],
    ['hotmial.com', 'hotmail.com'],
    ['yaho.com', 'yahoo.com'],
    ['outlok.com', 'outlook.com'],
    ['yahooo.co', 'yahoo.com'],
  ])('%s -> %s', (domain, suggestion) => {
    expect(suggestDomain(domain)).toBe(suggestion);
  });

  it.each(['gmail.com', 'ymail.com', 'mail.com', 'gmx.de', 'example.com', 'company.io', 'aol.de'])('%s: none', (domain) => {
    expect(suggestDomain(domain)).toBeNull();
  });

  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('gmial', 'gmail')).toBe(1);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

const clean: AddressChecks = {
  syntax: { valid: true, problem: null, smtputf8: false },
  domain: { result: 'mx', hosts: ['mx.example.com'] },
  disposable: false,
  role: false,
  suppressed: { suppressed: false, reason: null },
  suggestion: null,
};
const withChecks = (changes: Partial<AddressChecks>): AddressChecks => ({ ...clean, ...changes });

describe('verdict and score (the table of docs/deliverability.md)', () => {
  it.each<[string, Partial<AddressChecks>, string, number]>([
    ['a clean address', {}, 'valid', 1],
    ['an implicit MX', { domain: { result: 'implicit_mx', hosts: ['example.com'] } }, 'valid', 0.9],
    [
      'bad syntax',
      { syntax: { valid: false, problem: 'no_at_sign', smtputf8: false }, domain: { result: 'not_checked', hosts: [] } },
      'invalid',
      0,
    ],
    ['no mail host', { domain: { result: 'no_mail_host', hosts: [] } }, 'invalid', 0.05],
    ['a null MX', { domain: { result: 'null_mx', hosts: [] } }, 'invalid', 0.05],
    ['suppressed after a bounce', { suppressed: { suppressed: true, reason: 'bounce' } }, 'invalid', 0.1],
    ['a DNS failure', { domain: { result: 'dns_error', hosts: [] } }, 'risky', 0.6],
    ['a disposable domain', { disposable: true }, 'risky', 0.5],
    ['a role address', { role: true }, 'risky', 0.8],
    ['suppressed after a complaint', { suppressed: { suppressed: true, reason: 'complaint' } }, 'risky', 0.5],
    ['suppressed by hand', { suppressed: { suppressed: true, reason: 'manual' } }, 'risky', 0.5],
    ["an erased address's kept list", { suppressed: { suppressed: true, reason: 'erased' } }, 'risky', 0.5],
    ['a probable typo', { suggestion: 'jane@gmail.com' }, 'risky', 0.7],
    ['an SMTPUTF8 local part (SES cannot send to it)', { syntax: { valid: true, problem: null, smtputf8: true } }, 'invalid', 0.05],
    ['many risks at once (floored)', { disposable: true, role: true, suppressed: { suppressed: true, reason: 'manual' } }, 'risky', 0.1],
  ])('%s: %s, %s', (_name, changes, verdict, score) => {
    expect(assess(withChecks(changes))).toMatchObject({ verdict, score });
  });

  it('lists the reasons, the most serious first', () => {
    expect(assess(withChecks({ domain: { result: 'null_mx', hosts: [] }, role: true, disposable: true })).reasons).toEqual([
      'null_mx',
      'disposable_domain',
      'role_address',
    ]);
    expect(assess(clean).reasons).toEqual([]);
  });
});
