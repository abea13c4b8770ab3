/**
 * What every composed message looks like (docs/deliverability.md, "What every message looks like"): CRLF
 * only, whatever line breaks the bodies had; an HTML fragment wrapped in a document; a text alternative
 * derived from the HTML when none is given; and the worker's canonical line endings for raw messages.
 */
import { simpleParser } from 'mailparser';
import { composeMime } from '#shared/domain/mime/compose';
import { asHtmlDocument } from '#shared/domain/mime/html-document';
import { canonicalLineEndings, hasBareLineBreak } from '#shared/domain/mime/line-endings';
import type { Email } from '#shared/domain/emails/email';

const email = {
  id: 'msg_01JB0000000000000000000000',
  from: 'Acme <hello@acme.example>',
  to: ['reader@example.org'],
  cc: [],
  reply_to: [],
  subject: 'Receipt',
  created_at: '2026-11-26T00:00:00.000Z',
  headers: {},
} as unknown as Email;
const MIXED = `first line\nsecond line\r\nthird line\rfourth line\n\n${'é long line '.repeat(20)}\n`;

describe('composeMime', () => {
  it.each([
    ['text only', { text: MIXED }],
    ['html only', { html: `<p>${MIXED}</p>` }],
    ['html and text', { html: `<p>${MIXED}</p>`, text: MIXED }],
    ['html, text and an inline image', { html: `<p>${MIXED}<img src="cid:logo"></p>`, text: MIXED }],
  ])('%s: every line break is CRLF (no bare LF, no bare CR)', async (_label, body) => {
    const attachments =
      'text' in body && 'html' in body && body.html.includes('cid:')
        ? [{ filename: 'logo.png', contentType: 'image/png', content: Buffer.alloc(500, 7), cid: 'logo' }]
        : [];
    const raw = await composeMime(email, body, attachments);
    expect(hasBareLineBreak(raw)).toBe(false);
    expect(raw.toString('latin1')).toContain('\r\n');
    // The decoded text part has CRLF lines too (canonical form, RFC 2046 4.1.1).
    const parsed = await simpleParser(raw);
    if ('text' in body) expect(parsed.text).toContain('first line\nsecond line\nthird line\nfourth line');
  });

  it('derives a text alternative from the HTML when none is given (links kept, images and the pixel left out)', async () => {
    const html =
      '<h1>Your receipt</h1><p>Thanks for your order, Ada.</p><p><a href="https://shop.example/orders/1">See your order</a></p><img src="https://shop.example/logo.png" alt="Logo">';
    const parsed = await simpleParser(await composeMime(email, { html }));
    expect(parsed.text).toBe('Your receipt\n\nThanks for your order, Ada.\n\nSee your order [https://shop.example/orders/1]');
    expect(parsed.html).toContain('<h1>Your receipt</h1>');
  });

  it('keeps the text it is given; a blank one is derived', async () => {
    expect((await simpleParser(await composeMime(email, { html: '<p>Hello</p>', text: 'Own text' }))).text).toBe('Own text');
    expect((await simpleParser(await composeMime(email, { html: '<p>Hello</p>', text: ' \n' }))).text).toBe('Hello');
  });

  it('wraps an HTML fragment in a document; a document is sent as written', async () => {
    expect((await simpleParser(await composeMime(email, { html: '<p>Hi</p>' }))).html).toBe(
      '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><p>Hi</p></body></html>',
    );
    const document = '<html lang="en"><body><p>Hi</p></body></html>';
    expect((await simpleParser(await composeMime(email, { html: document }))).html).toBe(document);
  });
});

describe('asHtmlDocument', () => {
  it('wraps fragments, completes a head or body without <html>, leaves documents alone', () => {
    expect(asHtmlDocument('<p>x</p>')).toBe('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><p>x</p></body></html>');
    expect(asHtmlDocument('Plain words')).toBe('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>Plain words</body></html>');
    expect(asHtmlDocument('<body><p>x</p></body>')).toBe('<!DOCTYPE html><html><body><p>x</p></body></html>');
    expect(asHtmlDocument('<HEAD><title>t</title></HEAD><p>x</p>')).toBe(
      '<!DOCTYPE html><html><HEAD><title>t</title></HEAD><p>x</p></html>',
    );
    for (const document of ['<html><body>x</body></html>', '<!doctype html>\n<HTML lang="en"><p>x</p></HTML>', '<html>x'])
      expect(asHtmlDocument(document)).toBe(document);
    // <htmlx> or a word "html" is no <html> element.
    expect(asHtmlDocument('<p>html is fun</p>')).toMatch(/^<!DOCTYPE html><html>/);
  });
});

describe('canonicalLineEndings', () => {
  it('makes every bare LF and bare CR a CRLF and keeps CRLF', () => {
    const input = Buffer.from('A: 1\nB: 2\r\n\r\nline\rline\n\nend\r\n', 'latin1');
    const out = canonicalLineEndings(input);
    expect(out.toString('latin1')).toBe('A: 1\r\nB: 2\r\n\r\nline\r\nline\r\n\r\nend\r\n');
    expect(hasBareLineBreak(out)).toBe(false);
    expect(hasBareLineBreak(input)).toBe(true);
    const canonical = Buffer.from('a\r\nb\r\n');
    expect(canonicalLineEndings(canonical)).toBe(canonical);
    expect(canonicalLineEndings(Buffer.from('\n')).toString()).toBe('\r\n');
    expect(canonicalLineEndings(Buffer.from('x\r')).toString()).toBe('x\r\n');
  });
});
