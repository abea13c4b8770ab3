/**
 * The content type of a file name, where mailparser guesses one from libmime's table of ~900 extensions: a
 * part without Content-Type but with a filename. This table has the common attachment types only (the same
 * answers as libmime for these); any other extension is `application/octet-stream`.
 */
const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jpe: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  ico: 'image/x-icon',
  txt: 'text/plain',
  log: 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  htm: 'text/html',
  html: 'text/html',
  css: 'text/css',
  ics: 'text/calendar',
  vcf: 'text/x-vcard',
  xml: 'application/xml',
  json: 'application/json',
  js: 'application/javascript',
  eml: 'message/rfc822',
  msg: 'application/vnd.ms-outlook',
  rtf: 'application/rtf',
  doc: 'application/msword',
  dot: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xlsm: 'application/vnd.ms-excel.sheet.macroenabled.12',
  ppt: 'application/vnd.ms-powerpoint',
  pps: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  epub: 'application/epub+zip',
  zip: 'application/zip',
  gz: 'application/x-gzip',
  tgz: 'application/gnutar',
  tar: 'application/x-tar',
  '7z': 'application/x-7z-compressed',
  rar: 'application/x-rar-compressed',
  bz2: 'application/x-bzip2',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  oga: 'audio/ogg',
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  avi: 'video/avi',
  wmv: 'video/x-ms-wmv',
  webm: 'video/webm',
  mpg: 'video/mpeg',
  mpeg: 'video/mpeg',
  p7s: 'application/pkcs7-signature',
  p7m: 'application/pkcs7-mime',
  p7c: 'application/pkcs7-mime',
  pgp: 'application/pgp-signature',
  crt: 'application/pkix-cert',
  cer: 'application/pkix-cert',
  ps: 'application/postscript',
  eps: 'application/postscript',
};

/** The type of a file name (or bare extension): its last extension, case and spaces ignored. */
export function typeOfFilename(filename: string): string {
  const extension = filename.toLowerCase().replace(/\s/g, '').split('.').pop() ?? '';
  return Object.hasOwn(TYPES, extension) ? TYPES[extension]! : 'application/octet-stream';
}

/** The first extension of the table that has `type` (lower-case), or undefined. */
export function extensionOfType(type: string): string | undefined {
  return Object.keys(TYPES).find((extension) => TYPES[extension] === type);
}
