/**
 * An HTML body as a whole document (docs/deliverability.md, "What every message looks like"): a fragment
 * (no `<html>` element) is wrapped in `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>`
 * ... `</body></html>`; a fragment that already has its own `<head>` or `<body>` gets only the
 * `<!DOCTYPE html><html>` ... `</html>` around it. A document (an `<html>` start tag anywhere) is left
 * as written. Receivers' filters score fragments (SpamAssassin's HTML_MIME_NO_HTML_TAG), and clients
 * guess a fragment's charset.
 */
const HTML_START = /<html[\s>/]/i;
const HEAD_OR_BODY_START = /<(head|body)[\s>/]/i;

export function asHtmlDocument(html: string): string {
  if (HTML_START.test(html)) return html;
  if (HEAD_OR_BODY_START.test(html)) return `<!DOCTYPE html><html>${html}</html>`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${html}</body></html>`;
}
