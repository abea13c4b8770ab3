/**
 * The plain text a reader of an HTML body sees: the text/plain alternative the composer derives when an
 * email has HTML and no text (docs/deliverability.md, "What every message looks like"). Not a library: the
 * maintained one (html-to-text, already under mailparser) adds ~200 KiB to the send worker's bundle, which
 * is at its 1 MiB limit (docs/reference/dependencies.md).
 *
 * What it renders, in one forward pass (linear time, no backtracking regular expressions):
 * - text, with runs of white space as one space, character references decoded;
 * - paragraphs, headings, lists, tables, quotes and preformatted blocks (white space collapsed too) after a blank line, other blocks
 *   (div, tr, li, ...) on a line of their own, `<br>` as a line break, `<hr>` as a line of dashes, list
 *   items as `- item`, table cells separated by a space;
 * - a link as `text [url]` (only the URL when the text is the URL; mailto: without its scheme);
 * - nothing of `<head>`, `<script>`, `<style>`, `<template>`, `<noscript>`, comments (conditional ones
 *   included) and images (a logo or a tracking pixel says nothing in text).
 * Pure.
 */
import { decodeHtmlEntities } from '../html';

const SKIPPED = /^(head|script|style|template|title|noscript)$/;
const PARAGRAPH = /^(p|h[1-6]|table|ul|ol|blockquote|pre|dl|hr)$/;
const BLOCK = /^(div|section|article|header|footer|main|nav|aside|address|tr|li|dt|dd|center|figure|figcaption|form|body)$/;
const TAG = /<(\/?)([A-Za-z][^\s/>]*)/y;
const HREF = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

/** What a link's URL looks like in text, or null for links that say nothing there (anchors, javascript:, cid:). */
function shownUrl(href: string | undefined): string | null {
  const url = decodeHtmlEntities(href ?? '').trim();
  if (/^mailto:/i.test(url)) return url.slice(7).split('?')[0] || null;
  return /^https?:\/\//i.test(url) ? url : null;
}

/** The text being rendered: `\n` marks a line break, `\n\n` a blank line, ' ' a space (collapsed at the end). */
class TextWriter {
  private out = '';
  /** Line breaks owed before the next text (the largest a block asked for). */
  private breaks = 0;
  /** The links open around the text being written, innermost last. */
  private readonly links: { url: string | null; text: string }[] = [];

  text(raw: string): void {
    const value = decodeHtmlEntities(raw).replace(/[\s\u00a0]+/g, ' ');
    if (value === '' || (value === ' ' && this.breaks > 0)) return;
    if (this.breaks > 0 && this.out !== '') this.out = this.out.replace(/ +$/, '') + '\n'.repeat(this.breaks);
    this.breaks = 0;
    this.out += this.out === '' || this.out.endsWith('\n') || this.out.endsWith(' ') ? value.replace(/^ /, '') : value;
    for (const link of this.links) link.text += value;
  }

  /** A block boundary: `count` line breaks before the next text (1: a line of its own, 2: a blank line). */
  block(count: number): void {
    this.breaks = Math.max(this.breaks, count);
  }

  lineBreak(): void {
    this.out += '\n'.repeat(this.breaks || 1);
    this.breaks = 0;
  }

  openLink(href: string | undefined): void {
    this.links.push({ url: shownUrl(href), text: '' });
  }

  /** Ends a link: its URL after its text (alone when it has none; not at all when the text is the URL). */
  closeLink(): void {
    const link = this.links.pop();
    const shown = link?.text.trim();
    if (link?.url && shown === '') this.text(link.url);
    else if (link?.url && shown !== link.url && shown !== link.url.replace(/^https?:\/\//i, '').replace(/\/$/, ''))
      this.text(` [${link.url}]`);
  }

  finish(): string {
    return this.out
      .replace(/ +$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  }
}

/** Where the text goes on after a skipped element (`<head>`, `<script>`, ...) whose contents start at `from`; -1 when it never ends. */
function afterSkipped(html: string, name: string, from: number): number {
  const close = new RegExp(`</${name}[\\s/>]`, 'gi');
  close.lastIndex = from;
  const found = close.exec(html);
  if (!found) return -1;
  const after = html.indexOf('>', found.index);
  return after < 0 ? html.length : after + 1;
}

/** What an element's tag (`html` from `lt`, its '<', to `gt`, its '>') does to the text. */
function renderTag(writer: TextWriter, name: string, closing: boolean, html: string, lt: number, gt: number): void {
  if (name === 'br') writer.lineBreak();
  else if (PARAGRAPH.test(name)) writer.block(2);
  else if (BLOCK.test(name)) writer.block(1);
  else if (name === 'td' || name === 'th') writer.text(' ');
  if (name === 'hr') {
    writer.text('----------');
    writer.block(2);
  }
  if (name === 'li' && !closing) writer.text('- ');
  if (name === 'a' && !closing) {
    const href = HREF.exec(html.slice(lt, gt + 1));
    writer.openLink(href?.[1] ?? href?.[2] ?? href?.[3]);
  }
  if (name === 'a' && closing) writer.closeLink();
}

export function htmlToText(html: string): string {
  const writer = new TextWriter();
  let i = 0;
  // The first '>' at or after the current '<' (kept while it still is: each byte is searched once).
  let gt = -1;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    writer.text(html.slice(i, lt < 0 ? html.length : lt));
    if (lt < 0) break;
    if (gt < lt) gt = html.indexOf('>', lt);
    TAG.lastIndex = lt;
    const tag = TAG.exec(html);
    if (tag === null && html[lt + 1] !== '!' && html[lt + 1] !== '?') {
      // Not markup: a '<' in the text.
      writer.text('<');
      i = lt + 1;
      continue;
    }
    if (gt < 0) break; // a tag that never ends: the rest is no text, as in a browser
    const comment = html.startsWith('<!--', lt);
    const end = comment ? html.indexOf('-->', lt + 4) : gt;
    if (end < 0) break;
    i = comment ? end + 3 : gt + 1;
    if (!tag || comment) continue;
    const closing = tag[1] === '/';
    const name = tag[2]!.toLowerCase();
    if (!closing && SKIPPED.test(name)) {
      i = afterSkipped(html, name, i);
      if (i < 0) break;
      continue;
    }
    renderTag(writer, name, closing, html, lt, gt);
  }
  return writer.finish();
}
