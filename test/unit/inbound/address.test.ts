/**
 * Recipient addresses of inbound mail (shared/domain/inbound/address.ts): splitting at the last `@`, the
 * receive-only `inbound.<domain>` subdomain, and the plus part (Postmark's MailboxHash).
 */
import { firstPlusPart, parentOfReceivingDomain, plusPart, splitAddress } from '#shared/domain/inbound/address';

describe('splitAddress', () => {
  it('splits at the last @, lower-cases the domain and keeps the local part as written', () => {
    expect(splitAddress('Support+1234@Inbound.Example.COM')).toEqual({ local: 'Support+1234', domain: 'inbound.example.com' });
    expect(splitAddress('"a@b"@example.com')).toEqual({ local: '"a@b"', domain: 'example.com' });
  });

  it('drops the trailing dot of a fully qualified domain', () => {
    expect(splitAddress('a@example.com.')).toEqual({ local: 'a', domain: 'example.com' });
  });

  it('is null for what is not an address: no @, an empty local part, an empty domain', () => {
    expect(splitAddress('example.com')).toBeNull();
    expect(splitAddress('@example.com')).toBeNull();
    expect(splitAddress('a@')).toBeNull();
    expect(splitAddress('')).toBeNull();
  });
});

describe('parentOfReceivingDomain', () => {
  it('answers the parent of inbound.<x.y>', () => {
    expect(parentOfReceivingDomain('inbound.example.com')).toBe('example.com');
    expect(parentOfReceivingDomain('inbound.mail.example.co.uk')).toBe('mail.example.co.uk');
  });

  it('is null for any other name', () => {
    expect(parentOfReceivingDomain('example.com')).toBeNull();
    expect(parentOfReceivingDomain('mail.example.com')).toBeNull();
    expect(parentOfReceivingDomain('xinbound.example.com')).toBeNull();
    expect(parentOfReceivingDomain('inboundexample.com')).toBeNull();
    expect(parentOfReceivingDomain('sub.inbound.example.com')).toBeNull();
  });

  it('is null when the parent is a bare label (inbound.com, inbound.)', () => {
    expect(parentOfReceivingDomain('inbound.com')).toBeNull();
    expect(parentOfReceivingDomain('inbound.')).toBeNull();
    expect(parentOfReceivingDomain('inbound')).toBeNull();
  });
});

describe('plusPart', () => {
  it('is the part after the first + of the local part', () => {
    expect(plusPart('support+1234@inbound.example.com')).toBe('1234');
    expect(plusPart('support+a+b@inbound.example.com')).toBe('a+b');
    expect(plusPart('+ticket@inbound.example.com')).toBe('ticket');
  });

  it('reads only the local part (a + in the domain does not count)', () => {
    expect(plusPart('support@in+bound.example.com')).toBeNull();
  });

  it('is null without a plus, with an empty plus part, or for what is not an address', () => {
    expect(plusPart('support@inbound.example.com')).toBeNull();
    expect(plusPart('support+@inbound.example.com')).toBeNull();
    expect(plusPart('support+1234')).toBeNull();
  });
});

describe('firstPlusPart', () => {
  it('is the plus part of the first recipient that has one', () => {
    expect(
      firstPlusPart([
        'plain@inbound.example.com',
        'empty+@inbound.example.com',
        'a+first@inbound.example.com',
        'b+second@inbound.example.com',
      ]),
    ).toBe('first');
  });

  it('is null when none has one (or there are none)', () => {
    expect(firstPlusPart(['a@inbound.example.com', 'b@inbound.example.com'])).toBeNull();
    expect(firstPlusPart([])).toBeNull();
  });
});
