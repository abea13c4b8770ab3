/**
 * The MIME structure of a raw message, read the way mailparser's splitter (@zone-eu/mailsplit) reads it,
 * in one pass over the lines (linear in the message's size whatever its nesting):
 *
 * - a part's header block ends at the first empty line (a part cut off inside its header has the header
 *   read so far and an empty body); the mbox `From ` line in front of a block is not a field;
 * - a line is a delimiter when it is `--boundary` (or `--boundary--`, the closing one), optionally followed
 *   by blanks (RFC 2046 transport padding; mailsplit does not allow them), of the part's own multipart or of
 *   the multipart it is in: only those two, so a multipart without its closing delimiter runs to the end of
 *   the message (its last part takes the rest, outer delimiters included), as in mailparser; lines before
 *   the first delimiter (preamble) and after the closing one (epilogue) are not content;
 * - the line break before a delimiter belongs to the delimiter; a part cut off by the end of the message
 *   keeps everything to the end;
 * - a part whose header was still being read when the next part started is dropped, as mailsplit does;
 * - Content-Type absent: `message/rfc822` in a multipart/digest (RFC 2046; mailsplit: text/plain), else the
 *   type of the Content-Disposition filename's extension (./mime-types.ts), else
 *   `application/octet-stream` for `attachment`, else `text/plain`; present but empty: text/plain at the
 *   top, application/octet-stream in a part; a value without a slash is kept as written (not a body then);
 * - message/rfc822 parts are leaves (their bytes are the part's body), also `inline` ones (mailparser
 *   reads an inline 7bit/8bit one as part of the message);
 * - limits (a hostile message): more than `maxParts` parts (the top one not counted) or a part header
 *   over `maxHeaderBytes` stops the reading with `error` set; a multipart nested `maxDepth` levels deep is
 *   not split (its parts are not read).
 *
 * Bodies are views into the raw message (no copies); ./mime-part.ts decodes them.
 */
import { typeOfFilename } from './mime-types';
import { decodeWords, parseHeaderValue } from './encoded-words';
import { splitHeaderBlock, unfoldedValue, type RawHeaderField } from './header-block';

export interface MimePart {
  /** Header fields as received (latin1 text: one character per byte). */
  fields: RawHeaderField[];
  /** The Content-Type value, lower-cased (defaults above). */
  type: string;
  /** Content-Type parameters (lower-cased names; RFC 2231 decoded). */
  params: Record<string, string>;
  /** The Content-Disposition value, lower-cased and RFC 2047 decoded; null when absent or empty. */
  disposition: string | null;
  /** The disposition's `filename`, else the type's `name`, RFC 2231/2047 decoded; null when neither. */
  filename: string | null;
  /** Content-Transfer-Encoding, lower-cased, comments removed ('' when absent). */
  encoding: string;
  /** The body as received (still transfer-encoded), a view into the raw message; empty for a multipart. */
  body: Buffer;
  children: MimePart[];
  parent: MimePart | null;
  /** 0 for the message itself. */
  depth: number;
}

export interface MimeTree {
  root: MimePart;
  /** Why the reading stopped (a limit); what was read before is in the tree. */
  error: string | null;
}

export interface MimeLimits {
  maxParts: number;
  maxDepth: number;
  maxHeaderBytes: number;
}

/** mailsplit's words for the same limits. */
const TOO_MANY_PARTS = 'Max allowed child nodes exceeded';
const HEADER_TOO_LARGE = 'Max header size for a MIME node exceeded';

/** The first field of that (lower-case) name, its value unfolded; undefined when there is none. */
function headerValue(part: Pick<MimePart, 'fields'>, name: string): string | undefined {
  const field = part.fields.find((candidate) => candidate.name === name);
  return field ? unfoldedValue(field) : undefined;
}

/** A part being read: where its header started, its delimiter (multiparts), and where its body starts. */
interface Open {
  part: MimePart;
  headerStart: number;
  bodyStart: number;
  boundary: Buffer | null;
  /** The open multipart this part is in (null for the message). */
  parent: Open | null;
}

const HEAD = 0;
const BODY = 1;

/** One pass over a message's lines, keeping the part being read and what state its reading is in. */
class MimeTreeReader {
  readonly tree: MimeTree = { root: emptyPart(null), error: null };
  private node: Open;
  private state = HEAD;
  private headerBytes = 0;
  private inEpilogue = false;
  private parts = 0;

  constructor(
    private readonly raw: Buffer,
    private readonly limits: MimeLimits,
  ) {
    this.node = { part: this.tree.root, headerStart: 0, bodyStart: raw.length, boundary: null, parent: null };
  }

  read(): MimeTree {
    const raw = this.raw;
    let position = 0;
    while (position < raw.length) {
      const lineFeed = raw.indexOf(0x0a, position);
      const next = lineFeed < 0 ? raw.length : lineFeed + 1;
      const delimited = raw[position] === 0x2d && raw[position + 1] === 0x2d ? this.delimiterLine(position, next) : 'text';
      if (delimited === 'stop') break;
      if (delimited === 'text' && this.state === HEAD && !this.headerLine(position, next)) break;
      position = next;
    }
    if (!this.tree.error) this.finish();
    return this.tree;
  }

  /** A line starting `--` (from `position` to `next`): 'done' when it was a delimiter, 'text' when not, 'stop' at a limit. */
  private delimiterLine(position: number, next: number): 'done' | 'text' | 'stop' {
    const node = this.node;
    const own = !this.inEpilogue && node.boundary ? delimiter(this.raw, position, next, node.boundary) : 0;
    const parentBoundary = node.parent?.boundary;
    const outer = own || !parentBoundary ? 0 : delimiter(this.raw, position, next, parentBoundary);
    if (own === 1) return this.enter(this.openChild(node, next));
    // own === 2: a closing delimiter in the preamble; mailsplit reads on as if it were not there.
    if (own === 2) return 'done';
    if (!outer) return 'text';
    if (this.state === HEAD) {
      // A part still in its header: mailsplit keeps it (empty body) at a closing delimiter only.
      if (outer === 2 && this.headerBytes > 0) this.closeHeader(node, position, position);
    } else this.closeBody(node, position);
    if (outer === 1) return this.enter(this.openChild(node.parent!, next));
    this.node = node.parent!;
    this.state = BODY;
    this.inEpilogue = true;
    return 'done';
  }

  private enter(part: Open | null): 'done' | 'stop' {
    if (!part) return 'stop';
    this.node = part;
    return 'done';
  }

  /** A line of the header being read: false when the header is over its limit. */
  private headerLine(position: number, next: number): boolean {
    const raw = this.raw;
    this.headerBytes += next - position;
    if (this.headerBytes > this.limits.maxHeaderBytes) {
      this.tree.error = HEADER_TOO_LARGE;
      return false;
    }
    const length = next - position;
    if ((length === 1 && raw[position] === 0x0a) || (length === 2 && raw[position] === 0x0d && raw[position + 1] === 0x0a)) {
      this.closeHeader(this.node, position, next);
      this.state = BODY;
    }
    return true;
  }

  private openChild(parent: Open, at: number): Open | null {
    if (++this.parts > this.limits.maxParts) {
      this.tree.error = TOO_MANY_PARTS;
      return null;
    }
    this.state = HEAD;
    this.headerBytes = 0;
    this.inEpilogue = false;
    return { part: emptyPart(parent.part), headerStart: at, bodyStart: this.raw.length, boundary: null, parent };
  }

  /** The header of `open` is complete (it ends at `end`, the body starts at `bodyStart`): read it, attach the part. */
  private closeHeader(open: Open, end: number, bodyStart: number): void {
    readHeader(open.part, this.raw.subarray(open.headerStart, end));
    open.bodyStart = bodyStart;
    if (open.part.type.startsWith('multipart/') && open.part.params.boundary) {
      if (open.part.depth < this.limits.maxDepth) open.boundary = Buffer.from(open.part.params.boundary, 'utf8');
    }
    open.part.parent?.children.push(open.part);
  }

  /** A leaf's body ends at the delimiter line starting at `at` (the line break before it is the delimiter's). */
  private closeBody(open: Open, at: number): void {
    if (open.boundary || open.part.type.startsWith('multipart/')) return;
    let end = at;
    if (end > open.bodyStart && this.raw[end - 1] === 0x0a) end--;
    if (end > open.bodyStart && this.raw[end - 1] === 0x0d) end--;
    open.part.body = this.raw.subarray(open.bodyStart, Math.max(end, open.bodyStart));
  }

  /** The end of the message: the part being read is closed as it stands. */
  private finish(): void {
    const node = this.node;
    if (this.state === HEAD) this.closeHeader(node, this.raw.length, this.raw.length);
    else if (!node.boundary && !node.part.type.startsWith('multipart/')) node.part.body = this.raw.subarray(node.bodyStart);
  }
}

export function readMimeTree(raw: Buffer, limits: MimeLimits): MimeTree {
  return new MimeTreeReader(raw, limits).read();
}

/**
 * 1 for `--boundary`, 2 for `--boundary--` (blanks allowed after either), 0 when the line is neither. The
 * message's last line when it has no line break (a message cut short) is read as mailsplit reads it:
 * `--boundary` alone is not a delimiter, `--boundary-` is a closing one.
 */
function delimiter(raw: Buffer, start: number, end: number, boundary: Buffer): 0 | 1 | 2 {
  let position = start + 2;
  if (end - position < boundary.length || raw.compare(boundary, 0, boundary.length, position, position + boundary.length) !== 0) return 0;
  position += boundary.length;
  const lineBreak = raw[end - 1] === 0x0a;
  const lineEnd = lineBreak ? end - (raw[end - 2] === 0x0d && end - 2 >= position ? 2 : 1) : end;
  if (!lineBreak && position === lineEnd) return 0;
  let kind: 1 | 2 = 1;
  if (raw[position] === 0x2d && (raw[position + 1] === 0x2d || (!lineBreak && position + 1 === lineEnd))) {
    kind = 2;
    position = Math.min(position + 2, lineEnd);
  }
  while (position < lineEnd && (raw[position] === 0x20 || raw[position] === 0x09)) position++;
  if (!lineBreak && position === lineEnd - 1 && raw[position] === 0x0d) position++;
  return position === lineEnd ? kind : 0;
}

function emptyPart(parent: MimePart | null): MimePart {
  return {
    fields: [],
    type: 'text/plain',
    params: {},
    disposition: null,
    filename: null,
    encoding: '',
    body: Buffer.alloc(0),
    children: [],
    parent,
    depth: parent ? parent.depth + 1 : 0,
  };
}

/** The fields of a header block (the empty line ending it and what follows are ignored), an mbox `From ` (or HTTP `POST `) line in front left out. */
function headerFields(block: Buffer): RawHeaderField[] {
  const { fields } = splitHeaderBlock(block);
  if (fields[0] && /^(?:From|POST) /i.test(fields[0].text)) fields.shift();
  return fields;
}

/** The part's fields and what they say (the defaults at the top). */
function readHeader(part: MimePart, block: Buffer): void {
  part.fields = headerFields(block);

  const disposition = parseHeaderValue(headerValue(part, 'content-disposition') ?? '');
  const dispositionValue = disposition.value.toLowerCase().trim();
  part.disposition = dispositionValue ? decodeWords(dispositionValue) : null;

  const contentType = headerValue(part, 'content-type');
  let typeText: string;
  if (contentType !== undefined) typeText = contentType;
  else if (part.parent?.type === 'multipart/digest') typeText = 'message/rfc822';
  else if (disposition.params.filename && /\.[^.]+$/.test(disposition.params.filename.replace(/^\.+/, '')))
    typeText = typeOfFilename(disposition.params.filename);
  else typeText = dispositionValue === 'attachment' ? 'application/octet-stream' : 'text/plain';
  const parsed = parseHeaderValue(typeText);
  part.type = parsed.value.toLowerCase().trim() || (part.parent ? 'application/octet-stream' : 'text/plain');
  part.params = parsed.params;

  part.encoding = stripComment(headerValue(part, 'content-transfer-encoding') ?? '')
    .trim()
    .toLowerCase();
  const filename = disposition.params.filename || parsed.params.name;
  part.filename = filename ? decodeWords(filename) : null;
}

/** Everything from the first `(` to the last `)` removed (mailsplit's reading of `base64 (comment)`), in linear time. */
function stripComment(value: string): string {
  const open = value.indexOf('(');
  const close = value.lastIndexOf(')');
  return open >= 0 && close > open ? value.slice(0, open) + value.slice(close + 1) : value;
}
