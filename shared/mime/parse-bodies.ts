/**
 * The text and HTML bodies of a raw message, as mailparser assembles them, on the MIME reader of
 * ./mime-tree.ts (mailparser's charset tables and HTML converter weigh ~1.5 MB in a bundle).
 *
 * parseBodies is for display (the dashboard's email page: an SMTP relay message's preview); its answers
 * match mailparser's `simpleParser(raw, { skipImageLinks, skipTextLinks, skipTextToHtml })` on the
 * messages test/unit/mime/parse-bodies.test.ts lists. collectBodies is the assembly itself, also used by
 * the inbound parser (shared/inbound/parse-message.ts) with converters:
 *
 * - body parts are those of ./mime-part.ts (text/plain, text/html, message/delivery-status, disposition
 *   absent or inline); message/rfc822 parts are attachments (not shown); empty bodies are skipped;
 * - text = the text parts joined with "\n", html = the HTML parts joined with "<br/>\n", in document order;
 * - with converters, as mailparser: a text part outside a multipart/alternative of a message that has HTML
 *   also goes into html (textToHtml), and an HTML part goes into text (htmlToText) when it is outside a
 *   multipart/alternative of a message that has text, or when it is the message itself and there is no text.
 *
 * parseBodies has no converters: no text made from the HTML of an HTML-only message (`text` is null), and
 * no filler in `html` for a text part of a multipart/mixed (mailparser's empty string with skipTextToHtml).
 * Nesting deeper than 20 levels is not read.
 */
import { bodyKind, partText, walkParts } from './mime-part';
import { readMimeTree, type MimePart } from './mime-tree';

export interface MessageBodies {
  text: string | null;
  html: string | null;
}

export interface BodyConverters {
  htmlToText(html: string): string;
  textToHtml(text: string): string;
}

/** Limits of the preview: a hostile message cannot recurse or split without end. */
export const PREVIEW_LIMITS = { maxDepth: 20, maxParts: 10_000, maxHeaderBytes: 1024 * 1024 };

export function parseBodies(raw: Buffer): MessageBodies {
  return collectBodies(readMimeTree(raw, PREVIEW_LIMITS).root);
}

/** The bodies of a read message (the rules at the top). */
export function collectBodies(root: MimePart, convert?: BodyConverters): MessageBodies {
  let hasText = false;
  let hasHtml = false;
  for (const { part } of walkParts(root)) {
    const kind = bodyKind(part);
    if (kind === 'text') hasText = true;
    else if (kind === 'html') hasHtml = true;
  }
  const text: string[] = [];
  const html: string[] = [];
  for (const { part, inAlternative } of walkParts(root)) {
    const kind = bodyKind(part);
    if (!kind) continue;
    const content = partText(part);
    if (!content) continue;
    if (kind === 'text') {
      text.push(content);
      if (convert && !inAlternative && hasHtml) html.push(convert.textToHtml(content));
    } else {
      if (convert && ((!inAlternative && hasText) || (part === root && !hasText))) text.push(convert.htmlToText(content));
      html.push(content);
    }
  }
  return { text: text.length ? text.join('\n') : null, html: html.length ? html.join('<br/>\n') : null };
}
