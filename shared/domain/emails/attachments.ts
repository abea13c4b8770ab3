/**
 * Attachments of a send request (`attachments` on POST /emails): the zod schema for one file and for
 * the list, the blocked-extension rule, and the metadata kept on the email.
 *
 * Attachment bytes never go in DynamoDB: the send use case puts them in the blob store
 * (`attachments/<email_id>/<index>`) and the email item keeps only `AttachmentRef`s.
 *
 * Blocked extensions (`BLOCKED_EXTENSIONS`), the rule: the file name is lower-cased, trailing dots and
 * white space are dropped (Windows ignores them, so `run.exe.` and `run.exe ` are `run.exe`), and the
 * name is split on dots; the file is refused when ANY segment after the first is a blocked extension.
 * So `setup.EXE`, `invoice.pdf.exe`, `archive.exe.zip` and `invoice.exe.pdf` are all refused. Only the
 * last extension decides what a file opens with, but a blocked extension anywhere in the name is either
 * a disguise (`invoice.pdf.exe` shown as `invoice.pdf`) or a renamed executable one rename away from
 * running; refusing both is the safer rule. The cost is a false positive on names such as
 * `backup-example.com.zip` (`com`): rename the file (`backup-example_com.zip`).
 */
import { z } from 'zod';

export const MAX_ATTACHMENTS = 10;
/** Per file, decoded. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const MAX_FILENAME_LENGTH = 255;
export const BLOCKED_EXTENSIONS = ['exe', 'bat', 'cmd', 'com', 'scr', 'js', 'vbs', 'dll'] as const;

/** A validated attachment of a send request. `data` is the base64 text (white space removed). */
export interface Attachment {
  filename: string;
  /** Lower-case `type/subtype` (parameters kept); derived from the extension when not given. */
  content_type: string;
  /** Set for inline parts, referenced from the HTML as `cid:<content_id>`. */
  content_id?: string;
  data: string;
  /** Decoded size in bytes. */
  size: number;
}

/** What the email item keeps about an attachment: metadata and where its bytes are. */
export interface AttachmentRef {
  filename: string;
  content_type: string;
  size: number;
  content_id?: string;
  blob_key: string;
}

/** The attachment as shown in the public Email record (no blob key). */
export function toPublicAttachment(ref: AttachmentRef) {
  return { filename: ref.filename, content_type: ref.content_type, size: ref.size, content_id: ref.content_id ?? null };
}

/** Returns the blocked extension (e.g. `.exe`) found in the file name, or null. See the rule above. */
export function blockedExtensionOf(filename: string): string | null {
  const segments = filename.toLowerCase().replace(/[.\s]+$/u, '').split('.').slice(1);
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
  return CONTENT_TYPES[filename.slice(dot + 1).trim().toLowerCase()] ?? DEFAULT_CONTENT_TYPE;
}

/** Item aliases onto the names used here (and in error paths): the latter wins when both are present. */
const ALIASES: Record<string, string> = {
  name: 'filename',
  contentType: 'content_type',
  content: 'data',
  contentId: 'content_id',
};

function applyItemAliases(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (ALIASES[key] === undefined) out[key] = value;
  }
  for (const [key, value] of Object.entries(input)) {
    const canonical = ALIASES[key];
    if (canonical !== undefined && out[canonical] === undefined) out[canonical] = value;
  }
  return out;
}

/** C0 and C1 controls, and the bidirectional formatting characters used to disguise extensions (`gpj.exe` shown as `exe.jpg`). */
// eslint-disable-next-line no-control-regex
const FORBIDDEN_FILENAME_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const TOKEN = "[A-Za-z0-9!#$&^_.+-]";
const CONTENT_TYPE = new RegExp(`^(${TOKEN}+/${TOKEN}+)((?:\\s*;\\s*${TOKEN}+=(?:${TOKEN}+|"[^"\\\\\\r\\n]*"))*)\\s*$`);
const CONTENT_ID = /^[A-Za-z0-9._@-]{1,255}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const requiredString = (field: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) });

const filename = requiredString('filename (or name)').superRefine((value, ctx) => {
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
  }
});

const contentType = requiredString('content_type').transform((value, ctx) => {
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
    ctx.addIssue({ code: 'custom', message: `the file is ${size} bytes decoded; the limit is ${MAX_ATTACHMENT_BYTES} bytes (10 MB) per attachment` });
    return z.NEVER;
  }
  return { base64, size };
});

const contentId = requiredString('content_id').regex(CONTENT_ID, 'content_id must be 1-255 of A-Z, a-z, 0-9, ., _, @, - (no angle brackets); reference it as cid:<content_id>');

export const attachmentSchema = z.preprocess(
  applyItemAliases,
  z
    .object({
      filename,
      content_type: contentType.optional(),
      data,
      content_id: contentId.optional(),
    })
    .transform(
      (value): Attachment => ({
        filename: value.filename,
        content_type: value.content_type ?? contentTypeForFilename(value.filename),
        ...(value.content_id === undefined ? {} : { content_id: value.content_id }),
        data: value.data.base64,
        size: value.data.size,
      }),
    ),
);

export const attachmentsSchema = z
  .array(attachmentSchema, { error: (issue) => (issue.code === 'invalid_type' ? 'attachments must be an array of {filename, content_type, data, content_id}' : undefined) })
  .max(MAX_ATTACHMENTS, `at most ${MAX_ATTACHMENTS} attachments`)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((attachment, index) => {
      if (attachment.content_id === undefined) return;
      if (seen.has(attachment.content_id)) {
        ctx.addIssue({ code: 'custom', path: [index, 'content_id'], message: `content_id "${attachment.content_id}" is used by another attachment` });
      }
      seen.add(attachment.content_id);
    });
  });

export const ATTACHMENTS_ON_SCHEDULED_SEND = 'attachments are not allowed on scheduled sends (the body is stored; attachment bytes are not)';
export const ATTACHMENTS_IN_BATCH = 'attachments are not allowed in batch sends; send emails with attachments one at a time with POST /emails';

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
