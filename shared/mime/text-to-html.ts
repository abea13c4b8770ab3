/**
 * HTML from a text body, as mailparser writes it when a message's HTML is assembled from several parts
 * and one of them is text (a text/plain part outside a multipart/alternative of a message that also has
 * HTML): the text escaped, paragraphs (blank lines) as `<p>`, single line breaks as `<br/>`.
 * mailparser escapes with `he` (every non-ASCII character as a named or numeric reference, `&eacute;`);
 * here the project's one escaper (shared/domain/html.ts) escapes `& < > " '` and other characters stay as
 * they are: the same HTML once read.
 */
import { escapeHtml } from '../domain/html';

export function textToHtml(text: string): string {
  const escaped = escapeHtml(text);
  return `<p>${escaped
    .replace(/\r?\n/g, '\n')
    .trim()
    // Blanks at the end of each line (the leading group keeps this linear on long runs of blanks).
    .replace(/(^|[^ \t])[ \t]+(?=[\n\r\u2028\u2029]|$)/g, '$1')
    .trim()
    .replace(/\n\n+/g, '</p><p>')
    .trim()
    .replace(/\n/g, '<br/>')}</p>`;
}
