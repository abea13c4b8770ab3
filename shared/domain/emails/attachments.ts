/**
 * Attachments of a send request (`attachments` on POST /emails): the zod schema for one file and for
 * the list, the blocked-extension rule, and the metadata kept on the email.
 *
 * Attachment bytes never go in DynamoDB: the send use case puts them in the blob store
 * (`attachments/<email_id>/<index>`) and the email item keeps only `AttachmentRef`s.
 *
 * An item is either inline, `{filename, content_type?, data, content_id?}` (the bytes as base64 in the
 * request), or a reference to an upload, `{attachment_id, filename?, content_type?, content_id?}`: a file
 * PUT to a presigned URL from POST /attachments (docs/attachments.md), for files that cannot travel in
 * a 6 MB request. Which one is decided by the presence of `attachment_id`.
 *
 * Blocked extensions (`BLOCKED_EXTENSIONS`), the rule: the file name is lower-cased, trailing dots and
 * white space are dropped (Windows ignores them, so `run.exe.` and `run.exe ` are `run.exe`), and the
 * name is split on dots; the file is refused when ANY segment after the first is a blocked extension.
 * So `setup.EXE`, `invoice.pdf.exe`, `archive.exe.zip` and `invoice.exe.pdf` are all refused. Only the
 * last extension decides what a file opens with, but a blocked extension anywhere in the name is either
 * a disguise (`invoice.pdf.exe` shown as `invoice.pdf`) or a renamed executable one rename away from
 * running; refusing both is the safer rule. The cost is a false positive on names such as
 * `backup-example.com.zip` (`com`): rename the file (`backup-example_com.zip`).
 *
 * SES's own refusals come on top (./ses-content-rules.ts): the 90 extensions SES does not send, judged
 * as SES judges them, by the last extension only (`cert.cer`, `setup.msi`, `run.ps1`, `link.url`...), and
 * the characters SES refuses in a file name (`: * ? " < > |`), so such a file is a 422 naming it, not an
 * accepted email that SES then fails.
 */
import * as z from 'zod';
import { sesFilenameRefusal } from './ses-content-rules';
import { modelSchema } from '../model-schema';

export const MAX_ATTACHMENTS = 10;
/** Per file, decoded. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const MAX_FILENAME_LENGTH = 255;

/**
 * SES refuses a raw message over 40 MB (SendEmail, after base64). Counted here as 40,000,000 bytes, the
 * stricter reading of "MB": a message refused by SES after it was accepted would fail for good, so the
 * send refuses it up front instead (413).
 */
export const SES_MAX_MESSAGE_BYTES = 40_000_000;
/** Allowance for the message's own headers (with DKIM-Signature), MIME boundaries and part headers. */
const MESSAGE_OVERHEAD_BYTES = 64 * 1024;
/** Allowance per attachment for its part headers (Content-Type, Content-Disposition with a long encoded name, Content-ID). */
const PART_OVERHEAD_BYTES = 2 * 1024;

/** Bytes of a file once in MIME: base64 (4 per 3) in lines of 76 characters plus CRLF, with its part headers. */
export function mimeAttachmentBytes(size: number): number {
  const base64 = 4 * Math.ceil(size / 3);
  return base64 + 2 * Math.ceil(base64 / 76) + PART_OVERHEAD_BYTES;
}

/**
 * An upper estimate of the raw message size: the attachments as encoded by the composer, the bodies
 * (UTF-8 bytes of html and text, counted as base64 as the worst case of the composer's choices) and the
 * headers. 40 MB holds about 29 MB of attachments (MAX_ATTACHMENT_BYTES_PER_MESSAGE).
 */
export function estimateMessageBytes(attachmentSizes: readonly number[], bodyBytes = 0): number {
  const attachments = attachmentSizes.reduce((total, size) => total + mimeAttachmentBytes(size), 0);
  return MESSAGE_OVERHEAD_BYTES + (bodyBytes > 0 ? mimeAttachmentBytes(bodyBytes) : 0) + attachments;
}

/** The most bytes of files one message can carry under SES's limit (one file, short bodies): about 29 MB. */
export const MAX_ATTACHMENT_BYTES_PER_MESSAGE = (() => {
  let size = Math.floor(((SES_MAX_MESSAGE_BYTES - MESSAGE_OVERHEAD_BYTES - PART_OVERHEAD_BYTES) * 3 * 76) / (4 * 78));
  while (estimateMessageBytes([size]) > SES_MAX_MESSAGE_BYTES) size -= 1;
  return size;
})();
export const BLOCKED_EXTENSIONS = ['exe', 'bat', 'cmd', 'com', 'scr', 'js', 'vbs', 'dll'] as const;

/** A validated inline attachment of a send request. `data` is the base64 text (white space removed). */
export interface InlineAttachment {
  filename: string;
  /** Lower-case `type/subtype` (parameters kept); derived from the extension when not given. */
  content_type: string;
  /** Set for inline parts, referenced from the HTML as `cid:<content_id>`. */
  content_id?: string;
  data: string;
  /** Decoded size in bytes. */
  size: number;
}

/** The inline form's historical name. */
export type Attachment = InlineAttachment;

/** A send request's reference to an upload (POST /attachments); the overrides replace the upload's values. */
export interface AttachmentReference {
  attachment_id: string;
  filename?: string;
  content_type?: string;
  content_id?: string;
}

/** One validated item of a send request's `attachments`. */
export type AttachmentInput = InlineAttachment | AttachmentReference;

export function isAttachmentReference(attachment: AttachmentInput): attachment is AttachmentReference {
  return 'attachment_id' in attachment;
}

/** Ids of uploads (POST /attachments): `att_` and a ULID. */
export const ATTACHMENT_ID_PATTERN = /^att_[0-9A-HJKMNP-TV-Z]{26}$/;

/** What the email item keeps about an attachment: metadata and where its bytes are. */
export interface AttachmentRef {
  filename: string;
  content_type: string;
  size: number;
  content_id?: string;
  /**
   * The blob of its own that holds its bytes (an API send's file). Absent for a part of a raw message (the
   * SMTP relay): its bytes travel in the message, stored whole (the email's `mime_blob_key`).
   */
  blob_key?: string;
}

/** The stored AttachmentRef (an email item's `attachments`), checked against the interface. */
export const attachmentRefSchema = modelSchema<AttachmentRef>()(
  z.object({
    filename: z.string(),
    content_type: z.string(),
    size: z.number(),
    content_id: z.string().optional(),
    blob_key: z.string().optional(),
  }),
);

/** An attachment of an accepted API send (what resolveAttachments returns): its bytes in a blob of their own. */
export type EmailAttachment = AttachmentRef & { blob_key: string };

/** The attachment as shown in the public Email record (no blob key). */
export function toPublicAttachment(ref: AttachmentRef) {
  return { filename: ref.filename, content_type: ref.content_type, size: ref.size, content_id: ref.content_id ?? null };
}

/** Returns the blocked extension (e.g. `.exe`) found in the file name, or null. See the rule above. */
export function blockedExtensionOf(filename: string): string | null {
  const segments = filename
    .toLowerCase()
    .replace(/[.\s]+$/u, '')
    .split('.')
    .slice(1);
  for (const segment of segments) {
    const extension = segment.trim();
    if ((BLOCKED_EXTENSIONS as readonly string[]).includes(extension)) return `.${extension}`;
  }
  return null;
}

/** Content types by (last) extension, for attachments sent without `content_type`. */
const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  txt: 'text/plain',
  csv: 'text/csv',
  htm: 'text/html',
  html: 'text/html',
  ics: 'text/calendar',
  json: 'application/json',
  xml: 'application/xml',
  zip: 'application/zip',
  gz: 'application/gzip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
};
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export function contentTypeForFilename(filename: string): string {
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return DEFAULT_CONTENT_TYPE;
  return (
    CONTENT_TYPES[
      filename
        .slice(dot + 1)
        .trim()
        .toLowerCase()
    ] ?? DEFAULT_CONTENT_TYPE
  );
}

/** Item aliases onto the names used here (and in error paths): the latter wins when both are present. */
export const ATTACHMENT_ALIASES: Readonly<Record<string, string>> = {
  name: 'filename',
  contentType: 'content_type',
  content: 'data',
  contentId: 'content_id',
  attachmentId: 'attachment_id',
};

function applyItemAliases(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (ATTACHMENT_ALIASES[key] === undefined) out[key] = value;
  }
  for (const [key, value] of Object.entries(input)) {
    const canonical = ATTACHMENT_ALIASES[key];
    if (canonical !== undefined && out[canonical] === undefined) out[canonical] = value;
  }
  return out;
}

/** C0 and C1 controls, and the bidirectional formatting characters used to disguise extensions (`gpj.exe` shown as `exe.jpg`). */
// eslint-disable-next-line no-control-regex
const FORBIDDEN_FILENAME_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const TOKEN = '[A-Za-z0-9!#$&^_.+-]';
const CONTENT_TYPE = new RegExp(`^(${TOKEN}+/${TOKEN}+)((?:\\s*;\\s*${TOKEN}+=(?:${TOKEN}+|"[^"\\\\\\r\\n]*"))*)\\s*$`);
const CONTENT_ID = /^[A-Za-z0-9._@-]{1,255}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const requiredString = (field: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) });

/** A file name: 1-255 characters, no paths or control characters, no blocked extension (the rule above). */
export const filenameField = requiredString('filename (or name)').superRefine((value, ctx) => {
  if (value.length < 1 || value.length > MAX_FILENAME_LENGTH || value.trim() === '') {
    ctx.addIssue({ code: 'custom', message: `filename must be 1-${MAX_FILENAME_LENGTH} characters` });
    return;
  }
  if (/[/\\]/.test(value)) {
    ctx.addIssue({ code: 'custom', message: `"${value}": a file name must not contain / or \\ (no paths)` });
    return;
  }
  if (FORBIDDEN_FILENAME_CHARS.test(value)) {
    ctx.addIssue({ code: 'custom', message: 'filename must not contain control or bidirectional formatting characters' });
    return;
  }
  if (value === '.' || value === '..') {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a file name` });
    return;
  }
  const blocked = blockedExtensionOf(value);
  if (blocked) {
    ctx.addIssue({
      code: 'custom',
      message: `"${value}" is refused: files with the extension ${blocked} (${BLOCKED_EXTENSIONS.map((e) => `.${e}`).join(', ')}, anywhere in the name) cannot be attached`,
    });
    return;
  }
  // What SES itself refuses (its 90 extensions, judged by the last one, and its illegal characters).
  const refusedBySes = sesFilenameRefusal(value);
  if (refusedBySes) ctx.addIssue({ code: 'custom', message: refusedBySes });
});

/** A content type, normalised: lower-case essence, parameters kept; multipart types refused. */
export const contentTypeField = requiredString('content_type').transform((value, ctx) => {
  const match = CONTENT_TYPE.exec(value.trim());
  if (!match) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a content type: use type/subtype, e.g. application/pdf` });
    return z.NEVER;
  }
  const essence = match[1]!.toLowerCase();
  if (essence.startsWith('multipart/')) {
    ctx.addIssue({ code: 'custom', message: `${essence} cannot be the type of an attachment` });
    return z.NEVER;
  }
  return essence + (match[2] ?? '');
});

const data = requiredString('data (or content)').transform((value, ctx) => {
  const base64 = /[\s]/.test(value) ? value.replace(/[\r\n\t ]+/g, '') : value;
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const valid = BASE64.test(base64) && (padding > 0 ? base64.length % 4 === 0 : base64.length % 4 !== 1);
  if (!valid) {
    ctx.addIssue({ code: 'custom', message: 'data must be the file encoded as base64 (A-Z, a-z, 0-9, +, /, = padding)' });
    return z.NEVER;
  }
  const size = Math.floor(((base64.length - padding) * 3) / 4);
  if (size === 0) {
    ctx.addIssue({ code: 'custom', message: 'data is empty: an attachment needs at least one byte' });
    return z.NEVER;
  }
  if (size > MAX_ATTACHMENT_BYTES) {
    ctx.addIssue({
      code: 'custom',
      message: `the file is ${size} bytes decoded; the limit is ${MAX_ATTACHMENT_BYTES} bytes (10 MB) per attachment`,
    });
    return z.NEVER;
  }
  return { base64, size };
});

const FILENAME_DOC = `1-${MAX_FILENAME_LENGTH} characters, no / or \\ or control characters; blocked extensions (${BLOCKED_EXTENSIONS.map((e) => `.${e}`).join(' ')}) anywhere after the first dot are refused`;
const CONTENT_TYPE_DOC =
  'the MIME type (`type/subtype`, parameters allowed, not multipart/*); default: from the extension, else application/octet-stream';
const CONTENT_ID_DOC =
  'makes the file an inline part, shown where the HTML says `cid:<content_id>`: 1-255 of A-Za-z0-9._@-, unique in the request';

const contentId = requiredString('content_id').regex(
  CONTENT_ID,
  'content_id must be 1-255 of A-Z, a-z, 0-9, ., _, @, - (no angle brackets); reference it as cid:<content_id>',
);

export const inlineAttachmentSchema = z
  .object({
    filename: filenameField.describe(FILENAME_DOC),
    content_type: contentTypeField.optional().describe(CONTENT_TYPE_DOC),
    data: data.describe(
      `the file in base64 (line breaks allowed, padding optional): 1 byte to ${MAX_ATTACHMENT_BYTES} bytes (10 MB) decoded`,
    ),
    content_id: contentId.optional().describe(CONTENT_ID_DOC),
  })
  .transform(
    (value): InlineAttachment => ({
      filename: value.filename,
      content_type: value.content_type ?? contentTypeForFilename(value.filename),
      ...(value.content_id === undefined ? {} : { content_id: value.content_id }),
      data: value.data.base64,
      size: value.data.size,
    }),
  );

const attachmentId = requiredString('attachment_id').regex(
  ATTACHMENT_ID_PATTERN,
  'attachment_id must be the id of an upload from POST /attachments (att_ and 26 characters)',
);

export const attachmentReferenceSchema = z
  .object({
    attachment_id: attachmentId.describe('an upload from POST /attachments (att_...), uploaded and at most 24 hours old'),
    filename: filenameField.optional().describe(`${FILENAME_DOC}; default: the upload's`),
    content_type: contentTypeField
      .optional()
      .describe("the MIME type (`type/subtype`, parameters allowed, not multipart/*); default: the upload's"),
    content_id: contentId.optional().describe(CONTENT_ID_DOC),
    data: z
      .undefined({ message: 'give either data (the file as base64) or attachment_id (an upload from POST /attachments), not both' })
      .optional()
      .describe('not allowed with attachment_id'),
  })
  .transform(
    (value): AttachmentReference => ({
      attachment_id: value.attachment_id,
      ...(value.filename === undefined ? {} : { filename: value.filename }),
      ...(value.content_type === undefined ? {} : { content_type: value.content_type }),
      ...(value.content_id === undefined ? {} : { content_id: value.content_id }),
    }),
  );

function isReferenceItem(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'attachment_id' in value;
}

/**
 * One item: a reference when it has `attachment_id`, inline otherwise. Dispatched by hand rather than
 * with z.union so that a bad item reports its own fields (`attachments.1.data`), not "invalid input".
 */
export const attachmentSchema = z.preprocess(
  applyItemAliases,
  z.unknown().transform((value, ctx): AttachmentInput => {
    const result = (isReferenceItem(value) ? attachmentReferenceSchema : inlineAttachmentSchema).safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  }),
);

export const attachmentsSchema = z
  .array(attachmentSchema, {
    error: (issue) =>
      issue.code === 'invalid_type'
        ? 'attachments must be an array of {filename, content_type, data, content_id} or {attachment_id}'
        : undefined,
  })
  .max(MAX_ATTACHMENTS, `at most ${MAX_ATTACHMENTS} attachments`)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((attachment, index) => {
      if (attachment.content_id === undefined) return;
      if (seen.has(attachment.content_id)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'content_id'],
          message: `content_id "${attachment.content_id}" is used by another attachment`,
        });
      }
      seen.add(attachment.content_id);
    });
  });

export const ATTACHMENTS_ON_SCHEDULED_SEND =
  'attachments are not allowed on scheduled sends (the body is stored; attachment bytes are not)';
export const ATTACHMENTS_IN_BATCH =
  'attachments are not allowed in batch sends; send emails with attachments one at a time with POST /emails';

/**
 * For POST /emails/batch, per item (raw or parsed): a problem message for the item's `attachments`
 * field, or null. An absent field or an empty list is fine. The field is `attachments` in both shapes.
 */
export function rejectAttachmentsInBatch(item: unknown): string | null {
  if (typeof item !== 'object' || item === null) return null;
  const attachments = (item as { attachments?: unknown }).attachments;
  if (attachments === undefined || attachments === null) return null;
  if (Array.isArray(attachments) && attachments.length === 0) return null;
  return ATTACHMENTS_IN_BATCH;
}
