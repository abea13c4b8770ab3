/**
 * What mailparser reads of a raw message, in the shape of what the service's own reader gives
 * (shared/domain/mime/: parseBodies, messageAttachments, decodeWords on a header field): the oracle of
 * test/unit/mime/reader-vs-mailparser.test.ts.
 *
 * mailparser adds to the bodies what the service's reader does not: text made from HTML (html-to-text)
 * and HTML made from text (its textToHtml). The test file marks both (a Jest mock of html-to-text, a
 * textToHtml that returns a marker) and this module takes the marked pieces out of the joined bodies, so
 * what is compared is the body parts themselves, in order.
 */
import { simpleParser, type Attachment } from 'mailparser';

/** What html-to-text gives under the test's mock. */
export const TEXT_FROM_HTML = '\u0001text from html\u0001';
/** What mailparser's textToHtml gives under the test's patch. */
export const HTML_FROM_TEXT = '\u0001html from text\u0001';

export interface Reading {
  subject: string;
  text: string | null;
  html: string | null;
  attachments: {
    filename: string | null;
    contentType: string;
    size: number;
    contentId: string | null;
    disposition: 'inline' | 'attachment';
  }[];
}

export async function mailparserReading(raw: Buffer): Promise<Reading> {
  const mail = await simpleParser(raw, { skipImageLinks: true, skipTextLinks: true });
  return {
    subject: mail.subject ?? '',
    text: withoutPiece(mail.text, '\n', TEXT_FROM_HTML),
    html: withoutPiece(typeof mail.html === 'string' ? mail.html : undefined, '<br/>\n', HTML_FROM_TEXT),
    attachments: mail.attachments.map((attachment) => ({
      filename: attachment.filename ?? null,
      contentType: declaredType(attachment) ?? attachment.contentType,
      size: attachment.size,
      contentId: attachment.cid ?? null,
      disposition: attachment.contentDisposition === 'inline' ? 'inline' : 'attachment',
    })),
  };
}

/**
 * The type a part declares, lower-cased: what the reader lists (the record of a relayed message keeps the
 * type its sender gave); mailparser's contentType makes `application/octet-stream` specific from the
 * file's extension. Undefined when the part declares none (both then take it from the extension).
 */
function declaredType(attachment: Attachment): string | undefined {
  const declared = attachment.headers.get('content-type') as { value?: string } | undefined;
  return declared?.value?.trim().toLowerCase() || undefined;
}

/** Pieces joined with `separator`, every `piece` taken out (null when nothing else is left). */
function withoutPiece(joined: string | undefined, separator: string, piece: string): string | null {
  if (joined === undefined) return null;
  let rest = joined.split(separator + piece).join('');
  while (rest.startsWith(piece)) rest = rest.slice(piece.length + (rest.length > piece.length ? separator.length : 0));
  return rest === '' ? null : rest;
}
