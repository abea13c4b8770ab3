/**
 * What a part of ./mime-tree.ts is and holds, by mailparser's rules:
 *
 * - a body is a text/plain, text/html or message/delivery-status leaf whose disposition is absent or
 *   `inline` (any other disposition makes it an attachment; a filename alone does not);
 * - an attachment is any other leaf: not a multipart (a multipart is neither, even one whose parts could
 *   not be read);
 * - content is decoded from its Content-Transfer-Encoding (./transfer-encoding.ts); a body's text from its
 *   charset (./charset.ts), format=flowed unwrapped (./flowed.ts), line breaks as "\n" (a lone CR kept).
 */
import { decodeCharset } from './charset';
import { unflow } from './flowed';
import type { MimePart } from './mime-tree';
import { decodeTransferEncoding } from './transfer-encoding';

const BODY_TYPES = new Set(['text/plain', 'text/html', 'message/delivery-status']);

/** 'html' or 'text' for a body part (a delivery status is text), null for anything else. */
export function bodyKind(part: MimePart): 'text' | 'html' | null {
  if (!BODY_TYPES.has(part.type) || (part.disposition !== null && part.disposition !== 'inline')) return null;
  return part.type === 'text/html' ? 'html' : 'text';
}

export function isAttachment(part: MimePart): boolean {
  return !part.type.startsWith('multipart/') && bodyKind(part) === null;
}

/** The part's bytes, transfer decoding undone. */
function partContent(part: MimePart): Buffer {
  return decodeTransferEncoding(part.body, part.encoding);
}

/** A body part's text (the rules at the top). */
export function partText(part: MimePart): string {
  const text = decodeCharset(partContent(part), part.params.charset);
  const flowed = part.type === 'text/plain' && part.params.format?.trim().toLowerCase() === 'flowed';
  return flowed ? unflow(text, part.params.delsp?.trim().toLowerCase() === 'yes') : text.replace(/\r?\n/g, '\n');
}

/**
 * Every part in document order (the message first), with whether it is inside a multipart/alternative
 * (not counting itself). Iterative: a deep tree does not grow the stack.
 */
export function* walkParts(root: MimePart): Generator<{ part: MimePart; inAlternative: boolean }> {
  const stack: { part: MimePart; inAlternative: boolean }[] = [{ part: root, inAlternative: false }];
  while (stack.length) {
    const entry = stack.pop()!;
    yield entry;
    const inAlternative = entry.inAlternative || entry.part.type === 'multipart/alternative';
    for (let i = entry.part.children.length - 1; i >= 0; i--) stack.push({ part: entry.part.children[i]!, inAlternative });
  }
}
