/**
 * Plain text from an HTML body, for a message that has HTML but no text part (mailparser's text then is
 * html-to-text's). A small converter, one pass over the HTML:
 *
 * - tags removed; script, style, title and template elements dropped with their content; comments
 *   dropped; an unclosed tag or comment at the end is dropped;
 * - p, h1-h6, dl, table, blockquote, pre, hr, address, figure, fieldset and form start and end a
 *   paragraph (an empty line); ul and ol start a line and end a paragraph; div, li, tr, dt, dd and the
 *   sectioning elements start and end a line; <br> is a line break;
 *   table cells are separated by a space; list items start with " * " (" 1. ", " 2. "... in an <ol>);
 *   blockquote lines start with "> " (as html-to-text's, so reply stripping sees the quoted message);
 * - numeric character references and the common named ones (the Latin-1 set, typographic quotes and
 *   dashes, €, ™...) decoded; an unknown name stays as written;
 * - whitespace collapsed to one space (kept as written inside <pre>), blanks at the end of lines dropped,
 *   at most one empty line in a row, no empty line at the start or the end.
 *
 * What html-to-text does and this does not: wrapping at 80 columns, upper-cased headings, links written
 * `text [href]`, images as `alt [src]`, table layout, a rule for <hr>, and the rarer named entities. A `>`
 * inside a quoted attribute value ends its tag here. Linear in the length of the HTML.
 */

/** HTML names of U+00A0..U+00FF, in order. */
const LATIN1_NAMES =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';

const OTHER_NAMES: Record<string, number> = {
  amp: 38, lt: 60, gt: 62, quot: 34, apos: 39, OElig: 338, oelig: 339, Scaron: 352, scaron: 353, Yuml: 376, fnof: 402, circ: 710, tilde: 732,
  ensp: 8194, emsp: 8195, thinsp: 8201, zwnj: 8204, zwj: 8205, lrm: 8206, rlm: 8207, ndash: 8211, mdash: 8212, lsquo: 8216, rsquo: 8217,
  sbquo: 8218, ldquo: 8220, rdquo: 8221, bdquo: 8222, dagger: 8224, Dagger: 8225, bull: 8226, hellip: 8230, permil: 8240, prime: 8242,
  Prime: 8243, lsaquo: 8249, rsaquo: 8250, oline: 8254, euro: 8364, trade: 8482, larr: 8592, uarr: 8593, rarr: 8594, darr: 8595, harr: 8596,
  hearts: 9829, check: 10003, nbhy: 8209, hyphen: 8208, dash: 8208, grave: 96, lowbar: 95, verbar: 124, ast: 42, num: 35, excl: 33, quest: 63,
};

const NAMED: Map<string, string> = new Map([
  ...LATIN1_NAMES.split(' ').map((name, i): [string, string] => [name, String.fromCharCode(0xa0 + i)]),
  ...Object.entries(OTHER_NAMES).map(([name, code]): [string, string] => [name, String.fromCharCode(code)]),
]);
/** Names HTML also reads without their `;`. */
const LEGACY = new Set(['amp', 'lt', 'gt', 'quot', 'nbsp', 'copy', 'reg']);

const ENTITY = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,8})|([A-Za-z][A-Za-z0-9]{1,31}))(;?)/g;

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (match, decimal: string | undefined, hex: string | undefined, name: string | undefined, semicolon: string) => {
    if (name !== undefined) return (semicolon || LEGACY.has(name)) && NAMED.has(name) ? NAMED.get(name)! : match;
    const code = decimal !== undefined ? parseInt(decimal, 10) : parseInt(hex!, 16);
    return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : String.fromCodePoint(code);
  });
}

const PARAGRAPH = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'dl', 'table', 'blockquote', 'pre', 'hr', 'address', 'figure', 'fieldset', 'form']);
const LINE = new Set(['div', 'li', 'tr', 'dt', 'dd', 'section', 'article', 'header', 'footer', 'nav', 'aside', 'main', 'center', 'caption', 'figcaption', 'details', 'summary']);
const DROPPED = new Set(['script', 'style', 'title', 'template']);
const TAG_NAME = /(\/?)([a-zA-Z][a-zA-Z0-9:-]{0,63})/y;

export function htmlToText(html: string): string {
  const out = new TextLines();
  const lists: { ordered: boolean; count: number }[] = [];
  let pre = 0;
  let position = 0;
  while (position < html.length) {
    const open = html.indexOf('<', position);
    const textEnd = open < 0 ? html.length : open;
    if (textEnd > position) out.text(decodeEntities(html.slice(position, textEnd)), pre > 0);
    if (open < 0) break;

    if (html.startsWith('<!--', open)) {
      const end = html.indexOf('-->', open + 4);
      if (end < 0) break;
      position = end + 3;
      continue;
    }
    TAG_NAME.lastIndex = open + 1;
    const tag = TAG_NAME.exec(html);
    const special = html[open + 1] === '!' || html[open + 1] === '?';
    if (!tag && !special) {
      // A `<` that starts no tag is text.
      out.text('<', pre > 0);
      position = open + 1;
      continue;
    }
    const close = html.indexOf('>', open);
    if (close < 0) break;
    position = close + 1;
    if (special || !tag) continue;

    const closing = tag[1] === '/';
    const name = tag[2]!.toLowerCase();
    if (!closing && DROPPED.has(name) && html[close - 1] !== '/') {
      const end = new RegExp(`</${name}[\\s/>]`, 'gi');
      end.lastIndex = position;
      const found = end.exec(html);
      if (!found) break;
      const after = html.indexOf('>', found.index);
      if (after < 0) break;
      position = after + 1;
      continue;
    }
    if (name === 'br') out.lineBreak();
    else if (name === 'td' || name === 'th') out.text(' ', false);
    else if (PARAGRAPH.has(name) || LINE.has(name)) {
      // A list starts on the next line and ends its paragraph (nested: a line), as in html-to-text.
      const isList = name === 'ul' || name === 'ol';
      out.breakBefore(PARAGRAPH.has(name) && !(isList && (!closing || lists.length > 1)) ? 2 : 1);
      if (name === 'pre') pre = Math.max(0, pre + (closing ? -1 : 1));
      if (name === 'blockquote') out.quote = Math.max(0, out.quote + (closing ? -1 : 1));
      if (name === 'ul' || name === 'ol') {
        if (closing) lists.pop();
        else lists.push({ ordered: name === 'ol', count: 0 });
      }
      if (name === 'li' && !closing) {
        const list = lists[lists.length - 1];
        out.marker = list?.ordered ? ` ${++list.count}. ` : ' * ';
      }
    }
  }
  return out.finish();
}

/** The text as lines: breaks asked by blocks are taken when the next text comes. */
class TextLines {
  quote = 0;
  /** Written at the start of the next line (a list item's bullet). */
  marker = '';
  private lines: string[] = [];
  private line = '';
  private prefix = '';
  private open = false;
  /** Whether the open line ends with a space (kept aside: endsWith on a long concatenated string is slow). */
  private endsWithSpace = false;
  private wanted = 0;
  /** The quote depth of the open (or else the last) line: an empty line between two lines has the lesser one. */
  private lineQuote = 0;

  breakBefore(count: number): void {
    this.wanted = Math.max(this.wanted, count);
  }

  lineBreak(): void {
    if (this.open) this.end();
    else if (this.lines.length) this.lines.push(this.quotePrefix().trimEnd());
    this.wanted = 0;
  }

  text(text: string, preformatted: boolean): void {
    if (preformatted) {
      const lines = text.split(/\r?\n/);
      lines.forEach((line, i) => {
        if (i > 0) this.lineBreak();
        if (line) this.append(line, true);
      });
      return;
    }
    const collapsed = text.replace(/[ \t\n\r\f]+/g, ' ');
    if (collapsed) this.append(collapsed, false);
  }

  finish(): string {
    if (this.open) this.end();
    const kept: string[] = [];
    for (const line of this.lines) {
      const trimmed = line.trim() === '' ? '' : line;
      if (trimmed === '' && (kept.length === 0 || kept[kept.length - 1] === '')) continue;
      kept.push(trimmed);
    }
    while (kept.length && kept[kept.length - 1] === '') kept.pop();
    return kept.join('\n');
  }

  private append(text: string, preformatted: boolean): void {
    if (this.open && this.wanted > 0) this.end();
    if (!this.open) {
      const start = preformatted ? text : text.replace(/^ +/, '');
      if (!start) return;
      if (this.lines.length) for (let i = 1; i < this.wanted; i++) this.lines.push('> '.repeat(Math.min(this.quote, this.lineQuote)).trimEnd());
      this.wanted = 0;
      this.lineQuote = this.quote;
      this.prefix = this.quotePrefix() + this.marker;
      this.marker = '';
      this.line = start;
      this.open = true;
      this.endsWithSpace = start.endsWith(' ');
      return;
    }
    const added = this.endsWithSpace && text.startsWith(' ') ? text.slice(1) : text;
    if (!added) return;
    this.line += added;
    this.endsWithSpace = added.endsWith(' ');
  }

  private end(): void {
    this.lines.push((this.prefix + this.line).trimEnd());
    this.line = '';
    this.open = false;
  }

  private quotePrefix(): string {
    return '> '.repeat(this.quote);
  }
}
