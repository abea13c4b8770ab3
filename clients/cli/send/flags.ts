/**
 * `send`'s flags turned into a POST /emails body (docs/api.md, SendEmailRequest): repeatable addresses,
 * `--tag name=value`, `--header "Name: value"`, files read for `--html-file` and `--attach`. Pure but
 * for the file reads, so the unit tests check each mapping and each refusal.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { UsageError } from '../errors';

export interface SendFlags {
  from?: string;
  to?: string[];
  cc?: string[];
  bcc?: string[];
  replyTo?: string[];
  subject?: string;
  text?: string;
  html?: string;
  htmlFile?: string;
  tag?: string[];
  header?: string[];
  attach?: string[];
  scheduledAt?: string;
  idempotencyKey?: string;
  tenant?: string;
  category?: string;
  eml?: string;
}

export interface AttachmentBody {
  filename: string;
  data: string;
  content_type?: string;
  content_id?: string;
}

export interface SendBody {
  from?: string;
  to?: string[];
  cc?: string[];
  bcc?: string[];
  reply_to?: string[];
  subject?: string;
  text?: string;
  html?: string;
  tags?: { name: string; value: string }[];
  headers?: Record<string, string>;
  attachments?: AttachmentBody[];
  scheduled_at?: string;
  tenant?: string;
  category?: string;
}

/** Collects a repeatable option's values (commander's option argument parser). */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `name=value` -> a tag; the API checks the characters, this only the shape. */
export function parseTag(text: string): { name: string; value: string } {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`--tag "${text}" is not name=value (e.g. --tag category=welcome)`);
  return { name: text.slice(0, at), value: text.slice(at + 1) };
}

/** `Name: value` -> a header pair. */
export function parseHeader(text: string): [string, string] {
  const at = text.indexOf(':');
  if (at <= 0) throw new UsageError(`--header "${text}" is not "Name: value" (e.g. --header "X-Entity-Ref-ID: 1234")`);
  return [text.slice(0, at).trim(), text.slice(at + 1).trim()];
}

function readFile(path: string, flag: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new UsageError(`${flag} ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** A file as an inline attachment (base64; the API derives the content type from the extension). */
export function attachmentOfFile(path: string): AttachmentBody {
  return { filename: basename(path), data: readFile(path, '--attach').toString('base64') };
}

/** The body the flags describe; only the flags given appear in it (so they can override an .eml's values). */
export function sendBodyOfFlags(flags: SendFlags): SendBody {
  if (flags.html !== undefined && flags.htmlFile !== undefined) throw new UsageError('give --html or --html-file, not both');
  const body: SendBody = {};
  if (flags.from !== undefined) body.from = flags.from;
  if (flags.to?.length) body.to = flags.to;
  if (flags.cc?.length) body.cc = flags.cc;
  if (flags.bcc?.length) body.bcc = flags.bcc;
  if (flags.replyTo?.length) body.reply_to = flags.replyTo;
  if (flags.subject !== undefined) body.subject = flags.subject;
  if (flags.text !== undefined) body.text = flags.text;
  if (flags.html !== undefined) body.html = flags.html;
  if (flags.htmlFile !== undefined) body.html = readFile(flags.htmlFile, '--html-file').toString('utf8');
  if (flags.tag?.length) body.tags = flags.tag.map(parseTag);
  if (flags.header?.length) body.headers = Object.fromEntries(flags.header.map(parseHeader));
  if (flags.attach?.length) body.attachments = flags.attach.map(attachmentOfFile);
  if (flags.scheduledAt !== undefined) body.scheduled_at = flags.scheduledAt;
  if (flags.tenant !== undefined) body.tenant = flags.tenant;
  if (flags.category !== undefined) body.category = flags.category;
  return body;
}

/**
 * The .eml's body with the flags on top: a flag replaces the message's value of the same field (flag
 * attachments are added to the message's). Fails before any request when the result cannot be a send.
 */
export function mergeSendBodies(fromEml: SendBody, fromFlags: SendBody): SendBody {
  const merged: SendBody = { ...fromEml, ...fromFlags };
  if (fromEml.attachments?.length && fromFlags.attachments?.length) merged.attachments = [...fromEml.attachments, ...fromFlags.attachments];
  if (fromEml.headers && fromFlags.headers) merged.headers = { ...fromEml.headers, ...fromFlags.headers };
  const missing = [
    !merged.from && '--from',
    !merged.to?.length && '--to',
    !merged.subject && '--subject',
    merged.text === undefined && merged.html === undefined && '--text, --html or --html-file',
  ].filter(Boolean);
  if (missing.length) throw new UsageError(`send needs ${missing.join(', ')} (or an --eml file that has them)`);
  return merged;
}
