/**
 * The text and HTML bodies of a raw message, as mailparser assembles them, on the MIME reader of
 * ./mime-tree.ts: for display (the dashboard's email page: the preview of a message sent through the
 * SMTP relay), where mailparser's ~1.7 MiB and ~70 ms of loading would not fit the page's bundle
 * (docs/reference/parsers.md). Received mail is read by mailparser itself
 * (shared/adapters/received-mail/parse-message.ts).
 *
 * Its answers are mailparser's `simpleParser(raw)` bodies without the conversions mailparser adds
 * (test/unit/mime/reader-vs-mailparser.test.ts checks random messages against it, and
 * test/unit/mime/parse-bodies.test.ts chosen ones):
 *
 * - body parts are those of ./mime-part.ts (text/plain, text/html, message/delivery-status, disposition
 *   absent or inline); message/rfc822 parts are attachments (not shown); empty bodies are skipped;
 * - text = the text parts joined with "\n", html = the HTML parts joined with "<br/>\n", in document order;
 * - no text made from HTML (an HTML-only message has `text` null) and no HTML made from text (mailparser
 *   adds both when a message mixes them).
 *
 * Nesting deeper than 20 levels is not read.
 */
import { bodyKind, partText, walkParts } from './mime-part';
import { readMimeTree } from './mime-tree';

export interface MessageBodies {
  text: string | null;
  html: string | null;
}

/** Limits of the preview: a hostile message cannot recurse or split without end. */
export const PREVIEW_LIMITS = { maxDepth: 20, maxParts: 10_000, maxHeaderBytes: 1024 * 1024 };

export function parseBodies(raw: Buffer): MessageBodies {
  const text: string[] = [];
  const html: string[] = [];
  for (const { part } of walkParts(readMimeTree(raw, PREVIEW_LIMITS).root)) {
    const kind = bodyKind(part);
    const content = kind ? partText(part) : '';
    if (content) (kind === 'text' ? text : html).push(content);
  }
  return { text: text.length ? text.join('\n') : null, html: html.length ? html.join('<br/>\n') : null };
}
