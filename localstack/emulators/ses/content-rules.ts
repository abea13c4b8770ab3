/**
 * What SES refuses in the bytes of a message (Raw, or Simple once composed), checked before it is
 * accepted; each rule cites the AWS page it follows:
 *
 * - header fields that "can't appear more than once in the header section of a message" (60 names,
 *   https://docs.aws.amazon.com/ses/latest/dg/header-fields.html), compared case-insensitively as RFC 5322
 *   field names are: BadRequestException "Duplicate header 'X'." (the text SES answers, reported in
 *   https://github.com/arithmetic/aws-lambda-ses-forwarder/issues/11 and /pull/58);
 * - a header line with an empty field name (`: value`): BadRequestException "Empty header names are
 *   illegal." (SES's text, reported in https://github.com/aws/aws-sdk-js/issues/4121);
 * - an attachment whose file name ends in one of the 90 extensions SES does not accept
 *   (https://docs.aws.amazon.com/ses/latest/dg/mime-types.html; "Attachments must be in a file format that
 *   the Amazon SES supports": https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_RawMessage.html):
 *   MessageRejected. The extension is the last one of the name, case-insensitive; the message text is
 *   the emulator's own (AWS documents the refusal, not its wording);
 * - an attachment file name with a character of `/ \ : * ? " < > |`: BadRequestException (reported in
 *   https://github.com/govuk-forms/forms-runner/pull/1594; the text is the emulator's own).
 *
 * An attachment is any MIME part with a file name (Content-Disposition `filename` or Content-Type
 * `name`, RFC 2231/2047 decoded by mailparser), inline images included.
 */
import { simpleParser } from 'mailparser';
import { SesError, badRequest } from './errors';
import { headerSectionEnd } from './mime';

/** https://docs.aws.amazon.com/ses/latest/dg/header-fields.html, lower-cased. */
export const SES_SINGLE_HEADERS: ReadonlySet<string> = new Set(
  `Accept-Language acceptLanguage Archived-At Auto-Submitted Bounces-to Comments Content-Alternative Content-Base
   Content-Class Content-Description Content-Disposition Content-Duration Content-ID Content-Language Content-Length
   Content-Location Content-MD5 Content-Transfer-Encoding Content-Type Date Delivered-To Disposition-Notification-Options
   Disposition-Notification-To DKIM-Signature DomainKey-Signature Errors-To From Importance In-Reply-To Keywords
   List-Archive List-Help List-Id List-Owner List-Post List-Subscribe List-Unsubscribe List-Unsubscribe-Post
   Message-Context Message-ID MIME-Version Organization Original-From Original-Message-ID Original-Recipient
   Original-Subject Precedence Priority References Reply-To Return-Path Return-Receipt-To Sender Solicitation
   Sensitivity Subject Thread-Index Thread-Topic User-Agent VBR-Info`
    .split(/\s+/)
    .map((name) => name.toLowerCase()),
);

/** https://docs.aws.amazon.com/ses/latest/dg/mime-types.html (90 extensions). */
export const SES_REFUSED_EXTENSIONS: ReadonlySet<string> = new Set(
  `ade adp app asp bas bat cer chm cmd com cpl crt csh der exe fxp gadget hlp hta inf ins isp its js jse ksh lib lnk
   mad maf mag mam maq mar mas mat mau mav maw mda mdb mde mdt mdw mdz msc msh msh1 msh2 mshxml msh1xml msh2xml msi
   msp mst ops pcd pif plg prf prg reg scf scr sct shb shs sys ps1 ps1xml ps2 ps2xml psc1 psc2 tmp url vb vbe vbs
   vps vsmacros vss vst vsw vxd ws wsc wsf wsh xnk`.split(/\s+/),
);

const ILLEGAL_FILENAME_CHARACTER = /[/\\:*?"<>|]/;

/** The field names of the top-level header section, in order (continuation lines skipped). */
function topLevelFieldNames(raw: Buffer): string[] {
  const text = raw.subarray(0, headerSectionEnd(raw)).toString('latin1');
  const names: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.length === 0 || line.startsWith(' ') || line.startsWith('\t')) continue;
    const colon = line.indexOf(':');
    if (colon < 0) continue; // not a field (e.g. an mbox "From " line): SES's parser is not documented here
    names.push(line.slice(0, colon).trim());
  }
  return names;
}

function checkHeaderSection(raw: Buffer): void {
  const seen = new Set<string>();
  for (const name of topLevelFieldNames(raw)) {
    if (name === '') throw badRequest('Empty header names are illegal.');
    const lower = name.toLowerCase();
    if (!SES_SINGLE_HEADERS.has(lower)) continue;
    if (seen.has(lower)) throw badRequest(`Duplicate header '${name}'.`);
    seen.add(lower);
  }
}

/** The extension SES judges a file name by: its last one, lower-cased ('' when none). */
export function lastExtension(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot < 0
    ? ''
    : filename
        .slice(dot + 1)
        .trim()
        .toLowerCase();
}

async function checkAttachments(raw: Buffer): Promise<void> {
  // Only a message that names a file anywhere can hold an attachment: skip the full parse otherwise.
  if (!/\b(file)?name\*?(\*\d+)?\*?\s*=/i.test(raw.toString('latin1'))) return;
  const parsed = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true });
  for (const attachment of parsed.attachments) {
    const filename = attachment.filename;
    if (!filename) continue;
    if (ILLEGAL_FILENAME_CHARACTER.test(filename)) {
      throw badRequest(`Illegal filename '${filename}': a file name may not contain / \\ : * ? " < > |.`);
    }
    const extension = lastExtension(filename);
    if (SES_REFUSED_EXTENSIONS.has(extension)) {
      throw new SesError(
        'MessageRejected',
        `Attachment '${filename}' is refused: Amazon SES does not accept attachments of type .${extension}.`,
      );
    }
  }
}

/** Throws the SesError SES answers for the first refused element of the message; resolves when none. */
export async function checkContentRules(raw: Buffer): Promise<void> {
  checkHeaderSection(raw);
  await checkAttachments(raw);
}
