/**
 * Reading a received message into what the record, the bodies and the attachments need, with mailparser
 * (`simpleParser`): mail from strangers is read by the parser millions of messages have hardened, not by
 * one of ours (docs/reference/parsers.md). The worker is a queue worker off the
 * user's path, so mailparser's weight in its bundle is a figure it can afford (infra/functions.ts,
 * BUNDLE_SIZE_EXCEPTIONS).
 *
 * What is added to mailparser's reading (./parsed-mail.ts): an unreadable Date is null (mailparser gives
 * the time of parsing), and the header list reads 8-bit bytes as UTF-8 (RFC 6532; mailparser's lines
 * have one character per byte).
 *
 * Hostile input is read in linear time, as test/unit/inbound/parse-message.test.ts measures: libqp (the
 * quoted-printable decoder of mailparser's splitter and libmime) is held at 2.1.3 by package.json's
 * `overrides`, since 2.1.1 trimmed blanks at line ends with a regular expression quadratic in a run of
 * blanks (128 KiB of them took 30 s of CPU; a 40 MB message would have held the worker to its timeout).
 *
 * It never throws: a message mailparser cannot read whole (more than MAX_MIME_PARTS parts, a part's
 * header over 1 MB, ...) gives what its top header block says, decoded, with `parse_error` saying what
 * went wrong and no bodies or attachments. The raw message is kept either way. Attachments past
 * MAX_STORED_ATTACHMENTS are counted, not kept (they stay in the raw message).
 */
import { simpleParser } from 'mailparser';
import { splitHeaderBlock } from '../../domain/mime/header-block';
import { fromParsedMail } from './parsed-mail';
import type { ParsedInbound } from '../../domain/inbound/parsed-message';

/**
 * MIME parts read before the message is read as headers only (the top one not counted: mailparser's
 * `maxChildNodes` counts it). Its splitter's default, 1000, made a message of a few thousand tiny
 * attachments lose its body and its count; 10,000 are read in about a second.
 */
export const MAX_MIME_PARTS = 10_000;

/**
 * HTML converted to text (html-to-text, for a message without a text body) up to this length: over it
 * mailparser refuses the whole message ("HTML too long"), and the message is read again without making
 * text from its HTML. A 40 MB HTML body converted would take ~4 s of CPU and ~800 MB; read without the
 * conversion, ~1 s and ~400 MB.
 */
const MAX_HTML_TO_TEXT = 5 * 1024 * 1024;

const PARSER_OPTIONS = {
  skipImageLinks: true,
  skipTextLinks: true,
  maxHtmlLengthToParse: MAX_HTML_TO_TEXT,
  maxChildNodes: MAX_MIME_PARTS + 1,
} as const;

export async function parseInbound(raw: Buffer): Promise<ParsedInbound> {
  try {
    return fromParsedMail(await simpleParser(raw, PARSER_OPTIONS));
  } catch (error) {
    if (/^HTML too long/.test((error as Error)?.message)) return withoutTextFromHtml(raw);
    return headersOnly(raw, (error as Error)?.message || String(error));
  }
}

/** The message read again without text made from its HTML (mailparser puts an empty string in its place). */
async function withoutTextFromHtml(raw: Buffer): Promise<ParsedInbound> {
  try {
    const parsed = fromParsedMail(await simpleParser(raw, { ...PARSER_OPTIONS, skipHtmlToText: true }));
    return { ...parsed, text: parsed.text || null };
  } catch (error) {
    return headersOnly(raw, (error as Error)?.message || String(error));
  }
}

/** The top header block alone, read by mailparser too (decoded words, addresses); no bodies or attachments. */
async function headersOnly(raw: Buffer, reason: string): Promise<ParsedInbound> {
  const { fields } = splitHeaderBlock(raw);
  const block = Buffer.from(`${fields.map((field) => field.text.replace(/\r?\n?$/, '\r\n')).join('')}\r\n`, 'latin1');
  const empty = { html: null, text: null, attachments: [], attachment_count: 0, parse_error: reason };
  try {
    return { ...fromParsedMail(await simpleParser(block, PARSER_OPTIONS)), ...empty };
  } catch {
    return {
      from: '',
      to: [],
      cc: [],
      reply_to: [],
      subject: '',
      message_id: null,
      in_reply_to: null,
      references: [],
      date: null,
      headers: [],
      ...empty,
    };
  }
}
