/** The new part of a reply (shared/domain/inbound/reply-text.ts): quoted original and signature cut off. */
import { stripReply } from '#shared/domain/inbound/reply-text';

const lines = (...text: string[]) => text.join('\n');

describe('stripReply', () => {
  it('cuts at a Gmail "On ... wrote:" line', () => {
    const text = lines(
      'Thanks, that works.',
      '',
      'On Mon, Jan 1, 2024 at 10:00 AM Alice <alice@example.com> wrote:',
      '> Does it work?',
      '> Alice',
    );
    expect(stripReply(text)).toBe('Thanks, that works.');
  });

  it('cuts at "On ... wrote:" wrapped over two lines (the whole header goes, not only the quote)', () => {
    const text = lines(
      'Thanks, that works.',
      '',
      'On Mon, Jan 1, 2024 at 10:00 AM Alice Example <alice@example.com>',
      'wrote:',
      '',
      '> Does it work?',
    );
    expect(stripReply(text)).toBe('Thanks, that works.');
  });

  it('cuts at an Outlook "From: ... Sent:" block', () => {
    const text = lines(
      'Sure, Tuesday is fine.',
      '',
      'From: Alice <alice@example.com>',
      'Sent: Monday, January 1, 2024 10:00 AM',
      'To: Bob <bob@example.com>',
      'Subject: Meeting',
      '',
      'Can we meet on Tuesday?',
    );
    expect(stripReply(text)).toBe('Sure, Tuesday is fine.');
  });

  it('keeps a "From:" line that is not followed by Sent:/Date: (not a quote header)', () => {
    const text = lines('From: the support team', 'We fixed your issue.', 'More text.', 'Even more.', 'And more.', 'Sent: nothing');
    expect(stripReply(text)).toBe(text);
  });

  it('cuts at "-----Original Message-----"', () => {
    const text = lines('See below.', '-----Original Message-----', 'From: Alice', 'Question?');
    expect(stripReply(text)).toBe('See below.');
  });

  it('cuts a trailing block of "> " quoted lines', () => {
    const text = lines('Yes, please.', '', '> Shall I send it?', '> ', '>> earlier', '');
    expect(stripReply(text)).toBe('Yes, please.');
  });

  it('keeps quoted lines answered inline (the quote is not trailing)', () => {
    const text = lines('> Shall I send it?', 'Yes, please.', '> And the invoice?', 'That too.');
    expect(stripReply(text)).toBe(text);
  });

  it('cuts at the "-- " signature delimiter', () => {
    expect(stripReply(lines('See you tomorrow.', '', '-- ', 'Bob Example', 'CEO, Example Inc.'))).toBe('See you tomorrow.');
  });

  it('handles CRLF line breaks', () => {
    expect(stripReply('Done.\r\n\r\n-- \r\nBob\r\n')).toBe('Done.');
    expect(stripReply('Done.\r\nOn Mon, Jan 1, 2024 Alice <a@example.com> wrote:\r\n> q\r\n')).toBe('Done.');
  });

  it('leaves text with no quote as it is, trimmed', () => {
    expect(stripReply('\n\n  Hello there.\nA second line, with -- inside.\n\nOn Monday we ship.  \n\n')).toBe(
      'Hello there.\nA second line, with -- inside.\n\nOn Monday we ship.',
    );
  });

  it('is empty when everything is quoted', () => {
    expect(stripReply(lines('> only', '> quoted'))).toBe('');
  });
});
