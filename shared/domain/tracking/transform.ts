/**
 * Content transforms for tracking (docs/tracking.md), called by the send worker before composing: the
 * open pixel, and rewriting links of the HTML and text bodies through a `rewrite` callback (which signs
 * a click link, or answers null to leave a URL alone, e.g. the unsubscribe link).
 *
 * Only absolute http(s) URLs up to MAX_REWRITTEN_URL_LENGTH characters are offered to `rewrite`:
 * mailto:, tel:, relative links, anchors, placeholders and anything else are never touched. In HTML
 * only the `href` of `<a>` and `<area>` tags (the first one, as browsers read it) is rewritten; its
 * entities are decoded before the URL is offered, and the new value is escaped and quoted.
 *
 * Both scanners are single forward passes (no backtracking regular expressions): time is linear in the
 * input, whatever it holds. Pure.
 */
import { decodeHtmlEntities, escapeHtml } from '../html';
import { isHttpUrl, MAX_LINK_URL_LENGTH } from '../links/token';

/** URLs longer than this are left as they are (a signed click link carries the whole URL). */
export const MAX_REWRITTEN_URL_LENGTH = MAX_LINK_URL_LENGTH;

/** The new URL for `url`, or null to keep it. */
export type LinkRewrite = (url: string) => string | null;

/**
 * The open pixel's markup (docs/tracking.md, "The open pixel"): not an `<img>` element, because
 * SpamAssassin's HTML_IMAGE_ONLY_* rules score any HTML part under 3,200 bytes that has one (up to 2.8
 * points: Mail::SpamAssassin::Plugin::HTMLEval's html_image_only counts `img` tags against the part's
 * length), so a short email would look like an image-only one. Instead:
 * - an empty 1x1 block whose CSS background is the pixel: browsers, webmail (Gmail, Outlook.com, Yahoo)
 *   and Apple Mail load it as they load images (not `display:none`: a hidden element's background is not
 *   loaded);
 * - for Outlook on Windows (Word's renderer draws no CSS backgrounds), a 1x1 `<img>` inside an
 *   `<!--[if mso]>` conditional comment, which only Outlook reads (filters see a comment).
 */
export function openPixelTag(pixelUrl: string): string {
  const url = escapeHtml(pixelUrl);
  // In CSS's url('...'), characters that would end the string or the value are percent-encoded.
  const cssUrl = escapeHtml(pixelUrl.replace(/['"()\\\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`));
  return (
    `<div aria-hidden="true" style="width:1px;height:1px;line-height:1px;font-size:1px;overflow:hidden;background-image:url('${cssUrl}');"></div>` +
    `<!--[if mso]><img src="${url}" width="1" height="1" alt="" border="0" /><![endif]-->`
  );
}

/** Inserts the open pixel before the last `</body>` (any case), or appends it when there is none. */
export function addOpenPixel(html: string, pixelUrl: string): string {
  const endOfBody = /<\/body[\s>/]|<\/body$/gi;
  let at = -1;
  for (let match = endOfBody.exec(html); match !== null; match = endOfBody.exec(html)) at = match.index;
  const tag = openPixelTag(pixelUrl);
  return at < 0 ? html + tag : html.slice(0, at) + tag + html.slice(at);
}

// ---- HTML -----------------------------------------------------------------------------------------

const isHtmlSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
const isAsciiLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** The URL an href value navigates to: entities decoded, surrounding whitespace and inner tabs/newlines removed. */
function hrefTarget(raw: string): string | null {
  // A value far longer than any URL we rewrite is not decoded at all.
  if (raw.length > MAX_REWRITTEN_URL_LENGTH * 8) return null;
  const decoded = decodeHtmlEntities(raw);
  // Leading and trailing C0 controls and spaces go (a loop, not a regular expression: no backtracking).
  let from = 0;
  let to = decoded.length;
  while (from < to && decoded.charCodeAt(from) <= 0x20) from++;
  while (to > from && decoded.charCodeAt(to - 1) <= 0x20) to--;
  const url = decoded.slice(from, to).replace(/[\t\n\r]/g, '');
  return url.length <= MAX_REWRITTEN_URL_LENGTH && isHttpUrl(url) ? url : null;
}

/** Where an attribute's value sits in the document (inside its quotes), and its quote ('' when unquoted). */
interface AttributeValue {
  start: number;
  end: number;
  quote: string;
}

/**
 * The attribute at `p` inside a start tag: its name, its value if it has one, and where the next one starts;
 * null when a quoted value never ends (it swallows the rest of the document, as in a browser).
 */
function readAttribute(html: string, p: number): { name: string; value: AttributeValue | null; next: number } | null {
  const n = html.length;
  const nameStart = p;
  p++;
  while (p < n && !isHtmlSpace(html.charCodeAt(p)) && html[p] !== '/' && html[p] !== '>' && html[p] !== '=') p++;
  const name = html.slice(nameStart, p);
  while (p < n && isHtmlSpace(html.charCodeAt(p))) p++;
  if (html[p] !== '=') return { name, value: null, next: p };
  p++;
  while (p < n && isHtmlSpace(html.charCodeAt(p))) p++;
  const quote = html[p];
  if (quote === '"' || quote === "'") {
    const end = html.indexOf(quote, p + 1);
    return end < 0 ? null : { name, value: { start: p + 1, end, quote }, next: end + 1 };
  }
  const start = p;
  while (p < n && !isHtmlSpace(html.charCodeAt(p)) && html[p] !== '>') p++;
  return { name, value: { start, end: p, quote: '' }, next: p };
}

/**
 * The start tag at `lt`: its lower-case name, the value of its first href (on `<a>` and `<area>` only) and
 * where the tag ends; null when it never closes (nothing after it is rewritten).
 */
function readStartTag(html: string, lt: number): { name: string; href: AttributeValue | null; end: number } | null {
  const n = html.length;
  let p = lt + 1;
  while (p < n && !isHtmlSpace(html.charCodeAt(p)) && html[p] !== '/' && html[p] !== '>') p++;
  const name = html.slice(lt + 1, p).toLowerCase();
  const linkTag = name === 'a' || name === 'area';
  let href: AttributeValue | null = null;
  while (p < n) {
    const c = html.charCodeAt(p);
    if (isHtmlSpace(c) || c === 0x2f /* / */) {
      p++;
      continue;
    }
    if (c === 0x3e /* > */) return { name, href, end: p + 1 };
    const attribute = readAttribute(html, p);
    if (attribute === null) return null;
    if (linkTag && href === null && attribute.value !== null && attribute.name.toLowerCase() === 'href') href = attribute.value;
    p = attribute.next;
  }
  return null;
}

/**
 * Where the scan goes on after markup at `lt` that is not a start tag: past an ordinary comment (-1 when it
 * never ends), inside a conditional one (`<!--[if mso]>`, whose markup Outlook renders), else the next character.
 */
function afterNonTag(html: string, lt: number): number {
  if (!html.startsWith('<!--', lt)) return lt + 1;
  if (html.charCodeAt(lt + 4) === 0x5b /* [ */) return lt + 4;
  const end = html.indexOf('-->', lt + 4);
  return end < 0 ? -1 : end + 3;
}

/** Where the contents of a `<script>` or `<style>` from `from` end (at its end tag); -1 when they never do. */
function rawTextEnd(html: string, name: string, from: number): number {
  const close = new RegExp(`</${name}[\\s/>]`, 'gi');
  close.lastIndex = from;
  const found = close.exec(html);
  return found ? found.index : -1;
}

/** The href's new value as written in the tag (quoted when it was not), or null to leave it as it is. */
function rewrittenHref(html: string, href: AttributeValue, rewrite: LinkRewrite): string | null {
  const target = hrefTarget(html.slice(href.start, href.end));
  const replacement = target === null ? null : rewrite(target);
  if (replacement === null) return null;
  const escaped = escapeHtml(replacement);
  return href.quote === '' ? `"${escaped}"` : escaped;
}

/**
 * Rewrites the href of `<a>` and `<area>` tags whose value is an absolute http(s) URL (after decoding
 * entities), as `rewrite` says; single-quoted, double-quoted and unquoted values are understood (an
 * unquoted one is written back double-quoted). Script and style contents and ordinary comments are
 * skipped; conditional comments (`<!--[if mso]>`) are scanned, as Outlook renders their markup.
 */
export function rewriteHtmlLinks(html: string, rewrite: LinkRewrite): string {
  const out: string[] = [];
  let copied = 0;
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    if (!isAsciiLetter(html.charCodeAt(lt + 1))) {
      i = afterNonTag(html, lt);
      if (i < 0) break;
      continue;
    }
    const tag = readStartTag(html, lt);
    if (tag === null) break;
    i = tag.end;
    const replacement = tag.href === null ? null : rewrittenHref(html, tag.href, rewrite);
    if (tag.href !== null && replacement !== null) {
      out.push(html.slice(copied, tag.href.start), replacement);
      copied = tag.href.end;
    }
    if (tag.name === 'script' || tag.name === 'style') {
      i = rawTextEnd(html, tag.name, i);
      if (i < 0) break;
    }
  }
  if (copied === 0) return html;
  out.push(html.slice(copied));
  return out.join('');
}

// ---- text -----------------------------------------------------------------------------------------

/** Characters that end a bare URL in text: whitespace (ASCII and Unicode), controls, and <>"` . */
function endsTextUrl(c: number): boolean {
  return (
    c <= 0x20 ||
    c === 0x7f ||
    c === 0x3c ||
    c === 0x3e ||
    c === 0x22 ||
    c === 0x60 ||
    c === 0xa0 ||
    (c >= 0x2000 && c <= 0x200b) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?', "'", '"', '*']);
const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/** The URL without punctuation that ends the sentence around it; closing brackets stay when the URL opened them. */
function trimTrailing(url: string, minLength: number): string {
  const counts: Record<string, number> = { '(': 0, ')': 0, '[': 0, ']': 0, '{': 0, '}': 0 };
  for (const c of url) if (c in counts) counts[c]!++;
  let end = url.length;
  while (end > minLength) {
    const c = url[end - 1]!;
    if (TRAILING_PUNCTUATION.has(c)) end--;
    else if (c in CLOSERS && counts[c]! > counts[CLOSERS[c]!]!) {
      counts[c]!--;
      end--;
    } else break;
  }
  return url.slice(0, end);
}

/**
 * Rewrites bare http(s) URLs of a plain text body as `rewrite` says. A URL starts at `http://` or
 * `https://` (not inside a word) and ends at whitespace or one of <>"`; trailing punctuation (. , ; : !
 * ? ' " *) and unbalanced closing brackets are left outside it.
 */
export function rewriteTextLinks(text: string, rewrite: LinkRewrite): string {
  const n = text.length;
  const out: string[] = [];
  let copied = 0;
  const start = /https?:\/\//gi;
  for (let match = start.exec(text); match !== null; match = start.exec(text)) {
    const at = match.index;
    let end = at + match[0].length;
    while (end < n && !endsTextUrl(text.charCodeAt(end))) end++;
    start.lastIndex = end;
    const before = at > 0 ? text.charCodeAt(at - 1) : 0;
    if (isAsciiLetter(before) || (before >= 0x30 && before <= 0x39)) continue;
    if (end - at > MAX_REWRITTEN_URL_LENGTH + 1000) continue;
    const url = trimTrailing(text.slice(at, end), match[0].length);
    if (url.length === match[0].length || url.length > MAX_REWRITTEN_URL_LENGTH || !isHttpUrl(url)) continue;
    const replacement = rewrite(url);
    if (replacement === null) continue;
    out.push(text.slice(copied, at), replacement);
    copied = at + url.length;
  }
  if (copied === 0) return text;
  out.push(text.slice(copied));
  return out.join('');
}
