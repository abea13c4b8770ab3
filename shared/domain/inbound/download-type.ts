/**
 * The Content-Type a link to a stranger's content is served with (a received message's bodies and
 * attachments: shared/usecases/inbound/received-emails.ts). Every such link is a download
 * (`Content-Disposition: attachment`); its type is the sender's own only when a browser cannot run
 * script in it: HTML, XHTML, SVG, XML and script types (or a type that does not parse) become
 * application/octet-stream, so nothing a stranger wrote is rendered on the bucket's origin
 * (docs/inbound.md, "Downloads").
 */

/** `type/subtype`, as RFC 9110 8.3 writes it (a token each side). */
const ESSENCE = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/;
/** Types a browser renders as a document or runs: HTML, any XML (XHTML, SVG, XSL...), scripts, server push. */
const ACTIVE = /^(text\/html|text\/xsl|multipart\/x-mixed-replace)$|[+/]xml$|script/;

export const SAFE_DOWNLOAD_TYPE = 'application/octet-stream';

/**
 * The sender's type (its essence, `type/subtype`, lower case: parameters dropped, so no comma-separated
 * second type can follow) when inert, else application/octet-stream.
 */
export function downloadContentType(contentType: string | null | undefined): string {
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return ESSENCE.test(essence) && !ACTIVE.test(essence) ? essence : SAFE_DOWNLOAD_TYPE;
}
