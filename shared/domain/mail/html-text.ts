/**
 * The plain text a reader of an HTML body sees: the text/plain alternative the composer derives when an
 * email has HTML and no text (docs/deliverability.md, "What every message looks like"). Not a library: the
 * maintained one (html-to-text, already under mailparser) adds ~200 KiB to the send worker's bundle, which
 * is at its 1 MiB limit (docs/architecture.md, "Dependencies and why each is there").
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

export function htmlToText(html: string): string {
  /** Rendered text; `\n` marks a line break, `\n\n` a blank line, ' ' a space (collapsed at the end). */
  let out = '';
  let breaks = 0;
  const links: { url: string | null; text: string }[] = [];
  const text = (raw: string) => {
    const value = decodeHtmlEntities(raw).replace(/[\s\u00a0]+/g, ' ');
    if (value === '' || (value === ' ' && breaks > 0)) return;
    if (breaks > 0 && out !== '') out = out.replace(/ +$/, '') + '\n'.repeat(breaks);
    breaks = 0;
    out += out === '' || out.endsWith('\n') || out.endsWith(' ') ? value.replace(/^ /, '') : value;
    for (const link of links) link.text += value;
  };
  const block = (count: number) => {
    breaks = Math.max(breaks, count);
  };
  let i = 0;
  // The first '>' at or after the current '<' (kept while it still is: each byte is searched once).
  let gt = -1;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    text(html.slice(i, lt < 0 ? html.length : lt));
    if (lt < 0) break;
    if (gt < lt) gt = html.indexOf('>', lt);
    TAG.lastIndex = lt;
    const tag = TAG.exec(html);
    const markup = tag !== null || html[lt + 1] === '!' || html[lt + 1] === '?';
    if (!markup) {
      text('<');
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
      const close = new RegExp(`</${name}[\\s/>]`, 'gi');
      close.lastIndex = i;
      const found = close.exec(html);
      if (!found) break;
      const after = html.indexOf('>', found.index);
      i = after < 0 ? html.length : after + 1;
      continue;
    }
    if (name === 'br') {
      out += '\n'.repeat(breaks || 1);
      breaks = 0;
    } else if (PARAGRAPH.test(name)) block(2);
    else if (BLOCK.test(name)) block(1);
    else if (name === 'td' || name === 'th') text(' ');
    if (name === 'hr') text('----------'), block(2);
    if (name === 'li' && !closing) text('- ');
    if (name === 'a' && !closing) {
      const href = HREF.exec(html.slice(lt, gt + 1));
      links.push({ url: shownUrl(href?.[1] ?? href?.[2] ?? href?.[3]), text: '' });
    }
    if (name === 'a' && closing) {
      const link = links.pop();
      const shown = link?.text.trim();
      if (link?.url && shown === '') text(link.url);
      else if (link?.url && shown !== link.url && shown !== link.url.replace(/^https?:\/\//i, '').replace(/\/$/, '')) text(` [${link.url}]`);
    }
  }
  return out.replace(/ +$/gm, '').replace(/\n{3,}/g, '\n\n').trim();
}
