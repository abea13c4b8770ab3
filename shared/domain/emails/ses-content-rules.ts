/**
 * What Amazon SES refuses in a message, refused at our doors instead (the API: ./attachments.ts and
 * ./headers.ts; the SMTP relay: ../mime/ses-content-check.ts), so a send SES would refuse is a 4xx or
 * a 5xx SMTP reply naming the file or header, never a 202/250 that fails later:
 *
 * - files whose LAST extension is one of the 90 SES does not accept
 *   (https://docs.aws.amazon.com/ses/latest/dg/mime-types.html);
 * - file names with a character SES refuses, `/ \ : * ? " < > |`
 *   (BadRequestException, reported in https://github.com/govuk-forms/forms-runner/pull/1594);
 * - a second occurrence, in the message's header section, of the fields SES allows once
 *   (https://docs.aws.amazon.com/ses/latest/dg/header-fields.html; names compared case-insensitively).
 */

/** https://docs.aws.amazon.com/ses/latest/dg/mime-types.html, as listed there. */
export const SES_REFUSED_EXTENSIONS: readonly string[] = [
  '.ade',
  '.adp',
  '.app',
  '.asp',
  '.bas',
  '.bat',
  '.cer',
  '.chm',
  '.cmd',
  '.com',
  '.cpl',
  '.crt',
  '.csh',
  '.der',
  '.exe',
  '.fxp',
  '.gadget',
  '.hlp',
  '.hta',
  '.inf',
  '.ins',
  '.isp',
  '.its',
  '.js',
  '.jse',
  '.ksh',
  '.lib',
  '.lnk',
  '.mad',
  '.maf',
  '.mag',
  '.mam',
  '.maq',
  '.mar',
  '.mas',
  '.mat',
  '.mau',
  '.mav',
  '.maw',
  '.mda',
  '.mdb',
  '.mde',
  '.mdt',
  '.mdw',
  '.mdz',
  '.msc',
  '.msh',
  '.msh1',
  '.msh2',
  '.mshxml',
  '.msh1xml',
  '.msh2xml',
  '.msi',
  '.msp',
  '.mst',
  '.ops',
  '.pcd',
  '.pif',
  '.plg',
  '.prf',
  '.prg',
  '.reg',
  '.scf',
  '.scr',
  '.sct',
  '.shb',
  '.shs',
  '.sys',
  '.ps1',
  '.ps1xml',
  '.ps2',
  '.ps2xml',
  '.psc1',
  '.psc2',
  '.tmp',
  '.url',
  '.vb',
  '.vbe',
  '.vbs',
  '.vps',
  '.vsmacros',
  '.vss',
  '.vst',
  '.vsw',
  '.vxd',
  '.ws',
  '.wsc',
  '.wsf',
  '.wsh',
  '.xnk',
].map((extension) => extension.slice(1));

/** https://docs.aws.amazon.com/ses/latest/dg/header-fields.html: the fields a message may carry once. */
export const SES_SINGLE_HEADERS: readonly string[] = [
  'Accept-Language',
  'acceptLanguage',
  'Archived-At',
  'Auto-Submitted',
  'Bounces-to',
  'Comments',
  'Content-Alternative',
  'Content-Base',
  'Content-Class',
  'Content-Description',
  'Content-Disposition',
  'Content-Duration',
  'Content-ID',
  'Content-Language',
  'Content-Length',
  'Content-Location',
  'Content-MD5',
  'Content-Transfer-Encoding',
  'Content-Type',
  'Date',
  'Delivered-To',
  'Disposition-Notification-Options',
  'Disposition-Notification-To',
  'DKIM-Signature',
  'DomainKey-Signature',
  'Errors-To',
  'From',
  'Importance',
  'In-Reply-To',
  'Keywords',
  'List-Archive',
  'List-Help',
  'List-Id',
  'List-Owner',
  'List-Post',
  'List-Subscribe',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
  'Message-Context',
  'Message-ID',
  'MIME-Version',
  'Organization',
  'Original-From',
  'Original-Message-ID',
  'Original-Recipient',
  'Original-Subject',
  'Precedence',
  'Priority',
  'References',
  'Reply-To',
  'Return-Path',
  'Return-Receipt-To',
  'Sender',
  'Solicitation',
  'Sensitivity',
  'Subject',
  'Thread-Index',
  'Thread-Topic',
  'User-Agent',
  'VBR-Info',
];

const REFUSED = new Set(SES_REFUSED_EXTENSIONS);
const SINGLE = new Set(SES_SINGLE_HEADERS.map((name) => name.toLowerCase()));
/** The characters SES refuses in a file name. */
export const SES_ILLEGAL_FILENAME_CHARACTERS = /[/\\:*?"<>|]/;

/** Why SES would refuse a file of this name (its characters, then its last extension), or null. */
export function sesFilenameRefusal(filename: string): string | null {
  const illegal = SES_ILLEGAL_FILENAME_CHARACTERS.exec(filename);
  if (illegal) return `"${filename}": a file name must not contain ${illegal[0]} (Amazon SES refuses / \\ : * ? " < > | in file names)`;
  const dot = filename.lastIndexOf('.');
  const extension =
    dot < 0
      ? ''
      : filename
          .slice(dot + 1)
          .trim()
          .toLowerCase();
  if (REFUSED.has(extension))
    return `"${filename}" is refused: Amazon SES does not send files with the extension .${extension} (docs/attachments.md lists them)`;
  return null;
}

/** The first name (as written) that repeats a field SES allows once, case-insensitively; null when none. */
export function repeatedSingleHeader(names: Iterable<string>): string | null {
  const seen = new Set<string>();
  for (const name of names) {
    const lower = name.toLowerCase();
    if (!SINGLE.has(lower)) continue;
    if (seen.has(lower)) return name;
    seen.add(lower);
  }
  return null;
}
